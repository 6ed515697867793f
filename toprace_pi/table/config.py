"""The table's configuration file (TOML), checked on load.

Every setting has a default that suits the demo, so an empty file is a valid
configuration of a table with simulated devices. A full example with every key
explained is ``config.example.toml`` at the top of the repository.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toprace_pi.core import registry
from toprace_pi.core.registry import DEFAULT_GAME, game_names
from toprace_pi.core.search import DEFAULT_STRENGTH, STRENGTHS
from toprace_pi.errors import DataError
from toprace_pi.hardware.buttons import BOUNCE_TIME, DEFAULT_PINS
from toprace_pi.hardware.events import BUTTONS
from toprace_pi.hardware.gpio import HEADER_GPIOS
from toprace_pi.hardware.hub_protocol import MAX_READERS as MAX_HUB_READERS
from toprace_pi.hardware.strip import NUMBERS as STRIP_NUMBERS
from toprace_pi.hardware.strip import StripSettings
from toprace_pi.schema import Range, number_of, shown, unknown_keys, whole_in_text
from toprace_pi.table.checks import table

#: Where the tag registry and the journal go unless [files] says otherwise ("~" is the user's home).
DEFAULT_REGISTRY = "~/.local/share/toprace-pi/tags.json"
DEFAULT_JOURNAL = "~/.local/share/toprace-pi/journal.jsonl"
READER_KINDS = ("pn532", "simulated")
#: The keys of a ``[readers.NAME]`` section (the fields of :class:`ReaderConfig` but its name).
READER_KEYS = ("kind", "bus", "port", "address", "cs_pin")
#: The keys of ``[files]``: where the table keeps its tags, its journal and a calibrated board profile.
FILES_KEYS = ("registry", "journal", "profile")
#: The sections of the file.
SECTIONS = ("game", "readers", "hub", "strip", "buttons", "keyboard", "sound", "files", "web", "bots")
#: A reader's I2C address: seven bits.
I2C_ADDRESS = Range(int, 0x00, 0x7F, "an I2C address")
#: ``[web] listen``'s port.
PORT = Range(int, 1, 65535, "a port")
#: Every number of the table's own sections, by section and key, and the values a real table could need: each
#: is read through here, and the tests try every one with wrong values. A ``[readers.NAME]`` section's are
#: :data:`READER_NUMBERS`; each game's ``[game]`` numbers are its settings' own ``NUMBERS``.
NUMBERS: dict[str, dict[str, Range[Any]]] = {
    "buttons": {
        # Held UNDO: no shorter than the bounce of a press, and nobody holds a button for 10 s to take back a step.
        "hold_time": Range(float, BOUNCE_TIME, 10.0, "a number of seconds"),
        **{name: HEADER_GPIOS for name in BUTTONS},
    },
    "sound": {"buzzer": HEADER_GPIOS, "repeat_prompt": Range(int, 0, 3600, "a number of seconds (0: never)")},
    "strip": dict(STRIP_NUMBERS),
}
READER_NUMBERS: dict[str, Range[Any]] = {"address": I2C_ADDRESS}
#: ``[buttons] kind``: on the Pi's GPIO, or none, as nobody could press simulated ones: that lets the
#: table and its tools run on a computer that is not a Pi. Without a ``[buttons]`` section the buttons
#: are simulated, like every other device the file leaves out; with one, they are on the GPIO.
BUTTON_KINDS = ("gpio", "simulated")
_READER_NAME = re.compile(r"[a-z][a-z0-9_-]{0,15}")
BUSES = ("uart", "i2c", "spi")


@dataclass(frozen=True)
class ReaderConfig:
    """One card reader, by the name of its role in the game (Top Race: ``discard``, ``cars``)."""

    name: str
    kind: str = "simulated"
    bus: str = "uart"
    port: str = "/dev/serial0"
    address: int = 0x24
    cs_pin: str = "D5"


@dataclass(frozen=True)
class HubConfig:
    """A reader hub: a microcontroller polling several PN532s, on USB (``firmware/``)."""

    #: The names of the hub's readers 0, 1, ... in order: the game's readers have their roles (Top Race:
    #: ``discard``, ``cars``), other names (``seat1``) are places where any tag may be laid.
    readers: tuple[str, ...] = field(default_factory=lambda: tuple(reader_roles(DEFAULT_GAME)))
    #: The hub's serial device, or ``None`` to find it by its USB id at every (re)connect.
    port: str | None = None


@dataclass(frozen=True)
class TableConfig:
    #: ``[game] name``: which of the table's games (``toprace-pi games``).
    game: str = DEFAULT_GAME
    #: The rest of ``[game]``, as the game reads it (Top Race: track, deck, players, races, variant, ...).
    settings: Any = field(default_factory=lambda: _game_settings(DEFAULT_GAME, {}, []))
    readers: tuple[ReaderConfig, ...] = field(default_factory=lambda: (ReaderConfig(main_reader(DEFAULT_GAME)),))
    hub: HubConfig | None = None
    strip: Mapping[str, Any] = field(default_factory=lambda: {"backend": "simulated"})
    buttons: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_PINS))
    button_kind: str = "simulated"
    hold_time: float = 1.0
    #: ``[keyboard] enabled``: keys at the terminal the table runs in stand in for the buttons and readers.
    keyboard: bool = False
    sound: Mapping[str, Any] = field(default_factory=dict)
    registry: Path = field(default_factory=lambda: Path(DEFAULT_REGISTRY).expanduser())
    journal: Path = field(default_factory=lambda: Path(DEFAULT_JOURNAL).expanduser())
    profile: str | None = None
    #: ``[web]``: the web pages (spectator board, seats' phones), off without the section.
    web: WebConfig | None = None
    #: ``[bots]``: the seats the table plays itself, and how hard their bots think.
    bots: BotsConfig = field(default_factory=lambda: BotsConfig())


@dataclass(frozen=True)
class BotsConfig:
    """``[bots] seats = ["Carla"]`` (players' names of ``[game] players``: the table plays them with
    search bots) and ``strength``, how hard those bots think: easy, normal (the default) or strong."""

    seats: tuple[str, ...] = ()
    strength: str = DEFAULT_STRENGTH


@dataclass(frozen=True)
class WebConfig:
    """``[web] listen = "HOST:PORT"`` (``0.0.0.0:8080``: phones on the network may come in) and
    ``url``, how phones reach the table when its own address is not it (a name, a forwarded port)."""

    host: str = "0.0.0.0"
    port: int = 8080
    url: str | None = None


def load_config(path: str | Path) -> TableConfig:
    """Read and check a configuration file; every problem is named at once."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise DataError(str(path), [f"cannot be read: {exc.strerror}"]) from None
    except ValueError as exc:  # TOMLDecodeError, UnicodeDecodeError, an integer of more than 4300 digits
        raise DataError(str(path), [f"not valid TOML: {exc}"]) from None
    except RecursionError:
        raise DataError(str(path), ["not valid TOML: nested too deeply"]) from None
    return parse_config(data, str(path))


def parse_config(data: Mapping[str, Any], source: str) -> TableConfig:
    problems: list[str] = []
    unknown_keys(data, SECTIONS, "the file:", problems, what="section")
    game = table(data, "game", problems)
    files = table(data, "files", problems)
    unknown_keys(files, FILES_KEYS, "[files]", problems)
    buttons = table(data, "buttons", problems)
    name = _game_name(game.get("name", DEFAULT_GAME), problems)
    hub = _hub(table(data, "hub", problems), name, problems) if "hub" in data else None
    settings = _game_settings(name, game, problems)
    config = TableConfig(
        game=name,
        settings=settings,
        readers=_readers(table(data, "readers", problems), hub, name, problems),
        hub=hub,
        strip=_strip(table(data, "strip", problems), problems),
        buttons=_buttons(buttons, problems),
        button_kind=_button_kind(buttons.get("kind", "gpio" if "buttons" in data else "simulated"), problems),
        hold_time=number_of(buttons, "hold_time", NUMBERS["buttons"], "[buttons]", problems, 1.0),
        keyboard=_keyboard(table(data, "keyboard", problems), problems),
        sound=_sound(table(data, "sound", problems), problems),
        registry=_path(files.get("registry", DEFAULT_REGISTRY), "[files] registry", problems),
        journal=_path(files.get("journal", DEFAULT_JOURNAL), "[files] journal", problems),
        profile=_profile(files.get("profile"), problems),
        web=web_config(table(data, "web", problems), problems) if "web" in data else None,
        bots=bots_config(table(data, "bots", problems), name, settings, problems),
    )
    if problems:
        raise DataError(source, problems)
    return config


def web_config(section: dict[str, Any], problems: list[str]) -> WebConfig | None:
    unknown_keys(section, ("listen", "url"), "[web]", problems)
    listen = section.get("listen", "0.0.0.0:8080")
    url = section.get("url")
    if url is not None and (not isinstance(url, str) or not url.startswith(("http://", "https://"))):
        problems.append(f"[web] url: an address such as http://toprace.local:8080, not {shown(url)}")
        url = None
    host, _, port = str(listen).rpartition(":")
    number = whole_in_text(port)
    if not isinstance(listen, str) or number is None or number not in PORT:
        problems.append(f"[web] listen: HOST:PORT with {PORT} (0.0.0.0:8080), not {shown(listen)}")
        return None
    return WebConfig(host.strip("[]") or "0.0.0.0", number, url)


def bots_config(section: dict[str, Any], game: str, settings: Any, problems: list[str]) -> BotsConfig:
    unknown_keys(section, ("seats", "strength"), "[bots]", problems)
    strength = section.get("strength", DEFAULT_STRENGTH)
    if not isinstance(strength, str) or strength not in STRENGTHS:  # a list or a table cannot be looked up
        problems.append(f"[bots] strength: one of {', '.join(STRENGTHS)}, not {shown(strength)}")
        strength = DEFAULT_STRENGTH
    seats = section.get("seats", [])
    players = tuple(getattr(settings, "players", ()))
    if not isinstance(seats, list) or not all(isinstance(s, str) and s in players for s in seats) \
            or len(set(seats)) < len(seats):
        problems.append(f"[bots] seats: players' names of [game] players ({', '.join(players)}), each once, "
                        f"not {shown(seats)}")
        seats = []
    entry = registry.get(game)
    reason = "it has no search bot" if entry.search_bot is None else entry.no_bot_seats(settings)
    if seats and reason is not None:
        problems.append(f"[bots] seats: {entry.info.title} cannot seat bots at this table: {reason}")
        seats = []
    return BotsConfig(tuple(seats), strength)


def _path(value: object, key: str, problems: list[str]) -> Path:
    try:
        if isinstance(value, str) and value:
            return Path(value).expanduser()
    except RuntimeError:  # "~someone" with no such user
        pass
    problems.append(f"{key}: a file name, not {shown(value)}")
    return Path()


def _profile(value: object, problems: list[str]) -> str | None:
    if value is None or (isinstance(value, str) and value):
        return value
    problems.append(f"[files] profile: a board profile's name or file, not {shown(value)}")
    return None


def _game_settings(name: str, section: Mapping[str, Any], problems: list[str]) -> Any:
    """``[game]`` as the game reads it: every problem added to ``problems``."""
    return registry.get(name).records.parse_section(section, problems)


def _game_name(value: object, problems: list[str]) -> str:
    if value not in game_names():
        problems.append(f"[game] name: one of the games ({', '.join(game_names())}), not {shown(value)}")
        return DEFAULT_GAME
    return str(value)


def _sound(section: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    unknown_keys(section, ("buzzer", "tonal", "speech", "repeat_prompt"), "[sound]", problems)
    for key in NUMBERS["sound"]:
        if key in section:
            number_of(section, key, NUMBERS["sound"], "[sound]", problems)
    for key in ("tonal", "speech"):
        if not isinstance(section.get(key, False), bool):
            problems.append(f"[sound] {key}: true or false")
    return section


def reader_roles(game: str) -> dict[str, str]:
    """The game's card readers by name, and what lies on each; the first is the one every table needs."""
    return dict(registry.get(game).records.READERS)


def main_reader(game: str) -> str:
    return next(iter(reader_roles(game)))


def _readers(section: dict[str, Any], hub: HubConfig | None, game: str,
             problems: list[str]) -> tuple[ReaderConfig, ...]:
    on_hub = hub.readers if hub is not None else ()
    roles, main = reader_roles(game), main_reader(game)
    if not section:
        return () if main in on_hub else (ReaderConfig(main),)
    readers = []
    for name, entry in section.items():
        where = f"[readers.{name}]"
        if name not in roles or not isinstance(entry, Mapping):
            problems.append(f"{where}: readers are {' and '.join(repr(r) for r in roles)}, each a table")
            continue
        unknown_keys(entry, READER_KEYS, where, problems)
        if entry.get("kind", "simulated") not in READER_KINDS or entry.get("bus", "uart") not in BUSES:
            problems.append(f"{where}: kind is one of {', '.join(READER_KINDS)}, bus one of {', '.join(BUSES)}")
            continue
        fields = {k: entry[k] for k in READER_KEYS if k in entry}
        if not all(isinstance(fields.get(k, ""), str) for k in ("port", "cs_pin")):
            problems.append(f"{where}: port and cs_pin are names, like \"/dev/serial0\" and \"D5\"")
            continue
        known = len(problems)
        for key in READER_NUMBERS:
            number_of(fields, key, READER_NUMBERS, where, problems, getattr(ReaderConfig, key))
        if len(problems) > known:
            continue
        if name in on_hub:
            problems.append(f"{where}: the {name} reader is also on the hub ([hub] readers); keep one")
            continue
        readers.append(ReaderConfig(name, **fields))
    if main not in [r.name for r in readers] + list(on_hub):
        problems.append(f"[readers.{main}]: {roles[main]} needs a reader (here, or in [hub] readers)")
    return tuple(readers)


def _hub(section: dict[str, Any], game: str, problems: list[str]) -> HubConfig:
    unknown_keys(section, ("port", "readers"), "[hub]", problems)
    port = section.get("port", "auto")
    if not isinstance(port, str) or not port:
        problems.append(f"[hub] port: \"auto\" or a serial device like \"/dev/ttyACM1\", not {shown(port)}")
        port = "auto"
    roles = list(reader_roles(game))
    names = section.get("readers", roles)
    if (not isinstance(names, list) or not 1 <= len(names) <= MAX_HUB_READERS
            or not all(isinstance(n, str) and _READER_NAME.fullmatch(n) for n in names)
            or len(set(names)) < len(names)):
        problems.append(f"[hub] readers: a list of 1 to {MAX_HUB_READERS} different names (letters, digits, - "
                        f"and _), the hub's readers 0, 1, ... in order, like {roles}")
        names = roles
    return HubConfig(tuple(names), None if port == "auto" else port)


def _strip(section: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    """The [strip] section, checked now (its LED count may be left to the board profile) so that a bad one is
    named when the file is read, not when the strip is opened."""
    if not section:
        return {"backend": "simulated"}
    try:
        StripSettings.from_config({"count": 1, **section})
    except DataError as exc:
        problems.extend(exc.problems)
    return section


def _button_kind(value: object, problems: list[str]) -> str:
    if value not in BUTTON_KINDS:
        problems.append(f"[buttons] kind: one of {', '.join(BUTTON_KINDS)}, not {shown(value)}")
        return "gpio"
    return str(value)


def _keyboard(section: dict[str, Any], problems: list[str]) -> bool:
    unknown_keys(section, ("enabled",), "[keyboard]", problems)
    enabled = section.get("enabled", False)
    if not isinstance(enabled, bool):
        problems.append(f"[keyboard] enabled: true or false, not {shown(enabled)}")
        return False
    return enabled


def _buttons(section: dict[str, Any], problems: list[str]) -> dict[str, int]:
    unknown_keys(section, (*NUMBERS["buttons"], "kind"), "[buttons]", problems)
    pins = {k: v for k, v in section.items() if k in BUTTONS}
    if not pins:
        return dict(TableConfig().buttons)
    for name in pins:
        number_of(section, name, NUMBERS["buttons"], "[buttons]", problems)
    numbers = [pin for pin in pins.values() if isinstance(pin, int)]
    if len(set(numbers)) < len(numbers):
        problems.append("[buttons]: two buttons on one pin")
    missing = set(BUTTONS) - set(pins)
    if missing:
        problems.append(f"[buttons]: missing {', '.join(sorted(missing))}")
    return pins
