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
from toprace_pi.hardware.buttons import KINDS as BUTTON_KINDS
from toprace_pi.hardware.buttons import NUMBERS as BUTTON_NUMBERS
from toprace_pi.hardware.buttons import ButtonSettings
from toprace_pi.hardware.events import BUTTONS
from toprace_pi.hardware.hub_protocol import MAX_READERS as MAX_HUB_READERS
from toprace_pi.hardware.readers import KINDS as READER_TYPES
from toprace_pi.hardware.readers import NUMBERS as READER_NUMBERS
from toprace_pi.hardware.readers import HubSettings, ReaderSettings
from toprace_pi.hardware.readers.pn532 import BUSES
from toprace_pi.hardware.sound import NUMBERS as SOUND_NUMBERS
from toprace_pi.hardware.sound import SoundSettings
from toprace_pi.hardware.strip import AMPS, StripSettings
from toprace_pi.hardware.strip import BACKENDS as STRIP_BACKENDS
from toprace_pi.hardware.strip import NUMBERS as STRIP_NUMBERS
from toprace_pi.hardware.strip.frame import COLOUR_ORDERS
from toprace_pi.schema import Range, number_of, shown, unknown_keys, whole_in_text
from toprace_pi.table.checks import table

#: Where the tag registry and the journal go unless [files] says otherwise ("~" is the user's home).
DEFAULT_REGISTRY = "~/.local/share/toprace-pi/tags.json"
DEFAULT_JOURNAL = "~/.local/share/toprace-pi/journal.jsonl"
READER_KINDS = tuple(READER_TYPES)
#: The keys of a ``[readers.NAME]`` section (the fields of :class:`ReaderSettings` but its name).
READER_KEYS = tuple(key for key in ReaderSettings.__dataclass_fields__ if key != "name")
#: The keys of ``[files]``: where the table keeps its tags, its journal and a calibrated board profile.
FILES_KEYS = ("registry", "journal", "profile")
#: The sections of the file.
SECTIONS = ("game", "readers", "hub", "strip", "buttons", "keyboard", "sound", "files", "web", "bots")
#: ``[web] listen``'s port.
PORT = Range(int, 1, 65535, "a port")
#: Every number of the table's own sections, by section and key, and the values a real table could need (each
#: device kind's ranges, in its folder under :mod:`toprace_pi.hardware`): each is read through here, and the tests
#: try every one with wrong values. A ``[readers.NAME]`` section's are :data:`READER_NUMBERS`; each game's
#: ``[game]`` numbers are its settings' own ``NUMBERS``.
NUMBERS: dict[str, dict[str, Range[Any]]] = {"buttons": BUTTON_NUMBERS, "sound": SOUND_NUMBERS, "strip": STRIP_NUMBERS}
_READER_NAME = re.compile(r"[a-z][a-z0-9_-]{0,15}")


@dataclass(frozen=True)
class TableConfig:
    #: ``[game] name``: which of the table's games (``toprace-pi games``).
    game: str = DEFAULT_GAME
    #: The rest of ``[game]``, as the game reads it (Top Race: track, deck, players, races, variant, ...).
    settings: Any = field(default_factory=lambda: _game_settings(DEFAULT_GAME, {}, []))
    readers: tuple[ReaderSettings, ...] = field(default_factory=lambda: (ReaderSettings(main_reader(DEFAULT_GAME)),))
    hub: HubSettings | None = None
    strip: StripSettings = StripSettings()
    buttons: ButtonSettings = ButtonSettings()
    #: ``[keyboard] enabled``: keys at the terminal the table runs in stand in for the buttons and readers.
    keyboard: bool = False
    sound: SoundSettings = SoundSettings()
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
    name = _game_name(game.get("name", DEFAULT_GAME), problems)
    hub = _hub(table(data, "hub", problems), name, problems) if "hub" in data else None
    settings = _game_settings(name, game, problems)
    config = TableConfig(
        game=name,
        settings=settings,
        readers=_readers(table(data, "readers", problems), hub, name, problems),
        hub=hub,
        strip=_strip(table(data, "strip", problems), problems),
        buttons=_buttons(table(data, "buttons", problems), "buttons" in data, problems),
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


def _sound(section: dict[str, Any], problems: list[str]) -> SoundSettings:
    unknown_keys(section, tuple(SoundSettings.__dataclass_fields__), "[sound]", problems)
    default, known = SoundSettings(), len(problems)
    numbers = {key: number_of(section, key, SOUND_NUMBERS, "[sound]", problems) for key in SOUND_NUMBERS
               if key in section}
    switches = {key: section.get(key, getattr(default, key)) for key in ("tonal", "speech")}
    for key, value in switches.items():
        if not isinstance(value, bool):
            problems.append(f"[sound] {key}: true or false")
    return default if len(problems) > known else SoundSettings(**numbers, **switches)


def reader_roles(game: str) -> dict[str, str]:
    """The game's card readers by name, and what lies on each; the first is the one every table needs."""
    return dict(registry.get(game).records.READERS)


def main_reader(game: str) -> str:
    return next(iter(reader_roles(game)))


def _readers(section: dict[str, Any], hub: HubSettings | None, game: str,
             problems: list[str]) -> tuple[ReaderSettings, ...]:
    on_hub = hub.readers if hub is not None else ()
    roles, main = reader_roles(game), main_reader(game)
    if not section:
        return () if main in on_hub else (ReaderSettings(main),)
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
            number_of(fields, key, READER_NUMBERS, where, problems, getattr(ReaderSettings, key))
        if len(problems) > known:
            continue
        if name in on_hub:
            problems.append(f"{where}: the {name} reader is also on the hub ([hub] readers); keep one")
            continue
        readers.append(ReaderSettings(name, **fields))
    if main not in [r.name for r in readers] + list(on_hub):
        problems.append(f"[readers.{main}]: {roles[main]} needs a reader (here, or in [hub] readers)")
    return tuple(readers)


def _hub(section: dict[str, Any], game: str, problems: list[str]) -> HubSettings:
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
    return HubSettings(tuple(names), None if port == "auto" else port)


def _strip(section: dict[str, Any], problems: list[str]) -> StripSettings:
    """The ``[strip]`` section as the strip opens from it; its LED count may be left to the board profile."""
    unknown_keys(section, tuple(StripSettings.__dataclass_fields__), "[strip]", problems)
    default, known = StripSettings(), len(problems)
    numbers = {key: number_of(section, key, STRIP_NUMBERS, "[strip]", problems, getattr(default, key))
               for key in STRIP_NUMBERS if key != "count" or "count" in section}
    backend = section.get("backend", default.backend)
    if not isinstance(backend, str) or backend not in STRIP_BACKENDS:
        problems.append(f"[strip] backend: one of {', '.join(STRIP_BACKENDS)}, not {shown(backend)}")
    order = section.get("colour_order", default.colour_order)
    if not isinstance(order, str) or order.upper() not in COLOUR_ORDERS:
        problems.append(f"[strip] colour_order: one of {', '.join(COLOUR_ORDERS)}, not {shown(order)}")
    supply = section.get("supply_amps", default.supply_amps)
    reserve = section.get("reserve_amps", default.reserve_amps)
    if supply in AMPS and reserve in AMPS and not supply > reserve:
        problems.append(f"[strip] supply_amps: more than reserve_amps, not {supply!r} and {reserve!r}")
    if len(problems) > known:
        return default
    return StripSettings(backend=backend, colour_order=order.upper(), **numbers)


def _keyboard(section: dict[str, Any], problems: list[str]) -> bool:
    unknown_keys(section, ("enabled",), "[keyboard]", problems)
    enabled = section.get("enabled", False)
    if not isinstance(enabled, bool):
        problems.append(f"[keyboard] enabled: true or false, not {shown(enabled)}")
        return False
    return enabled


def _buttons(section: dict[str, Any], given: bool, problems: list[str]) -> ButtonSettings:
    """``[buttons]``: on the GPIO when the section is given, each button once on a pin of its own."""
    unknown_keys(section, (*BUTTON_NUMBERS, "kind"), "[buttons]", problems)
    default, known = ButtonSettings(), len(problems)
    kind = section.get("kind", "gpio" if given else default.kind)
    if not isinstance(kind, str) or kind not in BUTTON_KINDS:
        problems.append(f"[buttons] kind: one of {', '.join(BUTTON_KINDS)}, not {shown(kind)}")
    hold_time = number_of(section, "hold_time", BUTTON_NUMBERS, "[buttons]", problems, default.hold_time)
    pins = {name: number_of(section, name, BUTTON_NUMBERS, "[buttons]", problems) for name in BUTTONS
            if name in section} or dict(default.pins)
    numbers = [section[name] for name in pins if section.get(name) in BUTTON_NUMBERS[name]]
    if len(set(numbers)) < len(numbers):
        problems.append("[buttons]: two buttons on one pin")
    missing = set(BUTTONS) - set(pins)
    if missing:
        problems.append(f"[buttons]: missing {', '.join(sorted(missing))}")
    return default if len(problems) > known else ButtonSettings(kind, pins, hold_time)
