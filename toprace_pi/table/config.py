"""The table's configuration file (TOML), checked on load.

Every setting has a default that suits the demo, so an empty file is a valid
configuration of a table with simulated devices. A full example with every key
explained is ``config.example.toml`` at the top of the repository.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toprace_pi.data import DEFAULT_DECK, DEFAULT_TRACK, deck_names, track_names
from toprace_pi.errors import DataError
from toprace_pi.hardware.buttons import DEFAULT_PINS
from toprace_pi.hardware.events import BUTTONS
from toprace_pi.hardware.hub_protocol import MAX_READERS as MAX_HUB_READERS
from toprace_pi.hardware.strip import StripSettings
from toprace_pi.table.entries import CLAIM_WINDOW
from toprace_pi.text import printable

DEFAULT_PLAYERS = ("Anna", "Ben", "Carla", "David")
#: Where the tag registry and the journal go unless [files] says otherwise ("~" is the user's home).
DEFAULT_REGISTRY = "~/.local/share/toprace-pi/tags.json"
DEFAULT_JOURNAL = "~/.local/share/toprace-pi/journal.jsonl"
READER_KINDS = ("pn532", "simulated")
#: ``[buttons] kind``: on the Pi's GPIO, or on gpiozero's mock pins, which nobody presses but which let
#: the table and its tools run on a computer that is not a Pi.
BUTTON_KINDS = ("gpio", "simulated")
_READER_NAME = re.compile(r"[a-z][a-z0-9_-]{0,15}")
BUSES = ("uart", "i2c", "spi")


@dataclass(frozen=True)
class ReaderConfig:
    """One card reader: ``discard`` (speed cards) or ``cars`` (car tokens)."""

    name: str
    kind: str = "simulated"
    bus: str = "uart"
    port: str = "/dev/serial0"
    address: int = 0x24
    cs_pin: str = "D5"


@dataclass(frozen=True)
class HubConfig:
    """A reader hub: a microcontroller polling several PN532s, on USB (``firmware/``)."""

    #: The names of the hub's readers 0, 1, ... in order; ``discard`` (speed cards) and ``cars`` (car tokens)
    #: have their roles, other names (``seat1``) are places where any tag may be laid.
    readers: tuple[str, ...] = ("discard", "cars")
    #: The hub's serial device, or ``None`` to find it by its USB id at every (re)connect.
    port: str | None = None


@dataclass(frozen=True)
class TableConfig:
    track: str = DEFAULT_TRACK
    #: The speed cards and the edition of the cars: a shipped deck or a deck file.
    deck: str = DEFAULT_DECK
    players: tuple[str, ...] = DEFAULT_PLAYERS
    races: int = 1
    variant: str = "base"
    #: Pit Stop rule: seconds the table waits for claims after a card is played.
    claim_window: float = CLAIM_WINDOW
    readers: tuple[ReaderConfig, ...] = (ReaderConfig("discard"),)
    hub: HubConfig | None = None
    strip: Mapping[str, Any] = field(default_factory=lambda: {"backend": "simulated"})
    buttons: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_PINS))
    button_kind: str = "gpio"
    hold_time: float = 1.0
    #: ``[keyboard] enabled``: keys at the terminal the table runs in stand in for the buttons and readers.
    keyboard: bool = False
    sound: Mapping[str, Any] = field(default_factory=dict)
    registry: Path = field(default_factory=lambda: Path(DEFAULT_REGISTRY).expanduser())
    journal: Path = field(default_factory=lambda: Path(DEFAULT_JOURNAL).expanduser())
    profile: str | None = None

    @property
    def profile_name(self) -> str:
        """The board profile: as configured, else the track's default one."""
        return self.profile or self.track


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
    unknown = set(data) - {"game", "readers", "hub", "strip", "buttons", "keyboard", "sound", "files"}
    if unknown:
        problems.append(f"unknown section(s): {', '.join(sorted(unknown))}")
    game = _table(data, "game", problems)
    files = _table(data, "files", problems)
    buttons = _table(data, "buttons", problems)
    hub = _hub(_table(data, "hub", problems), problems) if "hub" in data else None
    config = TableConfig(
        track=_shipped(game, "track", track_names(), DEFAULT_TRACK, problems),
        deck=_shipped(game, "deck", deck_names(), DEFAULT_DECK, problems),
        players=_players(game.get("players", list(DEFAULT_PLAYERS)), problems),
        races=_whole(game.get("races", 1), "[game] races", 1, 99, problems),
        variant=_variant(game.get("variant", "base"), problems),
        claim_window=_number(game.get("claim_window", CLAIM_WINDOW), "[game] claim_window", problems),
        readers=_readers(_table(data, "readers", problems), hub, problems),
        hub=hub,
        strip=_strip(_table(data, "strip", problems), problems),
        buttons=_buttons(buttons, problems),
        button_kind=_button_kind(buttons.get("kind", "gpio"), problems),
        hold_time=_number(buttons.get("hold_time", 1.0), "[buttons] hold_time", problems),
        keyboard=_keyboard(_table(data, "keyboard", problems), problems),
        sound=_sound(_table(data, "sound", problems), problems),
        registry=_path(files.get("registry", DEFAULT_REGISTRY), "[files] registry", problems),
        journal=_path(files.get("journal", DEFAULT_JOURNAL), "[files] journal", problems),
        profile=_profile(files.get("profile"), problems),
    )
    if problems:
        raise DataError(source, problems)
    return config


def _table(data: Mapping[str, Any], key: str, problems: list[str]) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        problems.append(f"[{key}] must be a table")
        return {}
    return dict(value)


def _is_file(value: str) -> bool:
    try:
        return Path(value).is_file()
    except OSError:  # a name too long for the file system, say
        return False


def _path(value: object, key: str, problems: list[str]) -> Path:
    try:
        if isinstance(value, str) and value:
            return Path(value).expanduser()
    except RuntimeError:  # "~someone" with no such user
        pass
    problems.append(f"{key}: a file name, not {value!r}")
    return Path()


def _profile(value: object, problems: list[str]) -> str | None:
    if value is None or (isinstance(value, str) and value):
        return value
    problems.append(f"[files] profile: a board profile's name or file, not {value!r}")
    return None


def _shipped(game: dict[str, Any], kind: str, shipped: list[str], default: str, problems: list[str]) -> str:
    """``[game] track`` or ``deck``: a shipped one by name, or a file (read when the game starts), made
    absolute so that the journal names it for a resume or a replay from any working directory."""
    value = game.get(kind, default)
    if not isinstance(value, str) or (value not in shipped and not _is_file(value)):
        problems.append(f"[game] {kind}: {value!r} is neither a shipped {kind} ({', '.join(shipped)}) nor a file")
        return default
    return value if value in shipped else str(Path(value).resolve())


def _variant(value: object, problems: list[str]) -> str:
    from toprace_pi.rules.variants import variant_names

    if value not in variant_names():
        problems.append(f"[game] variant: one of {', '.join(variant_names())}, not {value!r}")
        return "base"
    return str(value)


def _players(value: object, problems: list[str]) -> tuple[str, ...]:
    names = tuple(value) if isinstance(value, list) else ()
    if not 2 <= len(names) <= 6 or not all(isinstance(n, str) and n for n in names) or len(set(names)) < len(names):
        problems.append("[game] players: a list of 2 to 6 different names")
        return DEFAULT_PLAYERS
    odd = [printable(n) for n in names if not n.isprintable()]
    if odd:
        problems.append(f"[game] players: a name may hold no control characters ({', '.join(odd)})")
        return DEFAULT_PLAYERS
    return names


def _whole(value: object, key: str, low: int, high: int, problems: list[str]) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.append(f"{key}: a whole number from {low} to {high}")
        return low
    return value


def _number(value: object, key: str, problems: list[str]) -> float:
    try:
        number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    except OverflowError:
        number = math.nan
    if not (math.isfinite(number) and number > 0):
        problems.append(f"{key}: a positive number")
        return 1.0
    return number


def _sound(section: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    unknown = set(section) - {"buzzer", "tonal", "speech", "repeat_prompt"}
    if unknown:
        problems.append(f"[sound] unknown key(s): {', '.join(sorted(unknown))}")
    if "buzzer" in section:
        _whole(section["buzzer"], "[sound] buzzer: the GPIO of the buzzer;", 2, 27, problems)
    if "repeat_prompt" in section:
        _whole(section["repeat_prompt"], "[sound] repeat_prompt: seconds of quiet before the prompt is said again "
               "(0: never);", 0, 3600, problems)
    for key in ("tonal", "speech"):
        if not isinstance(section.get(key, False), bool):
            problems.append(f"[sound] {key}: true or false")
    return section


def _readers(section: dict[str, Any], hub: HubConfig | None, problems: list[str]) -> tuple[ReaderConfig, ...]:
    on_hub = hub.readers if hub is not None else ()
    if not section:
        return () if "discard" in on_hub else (ReaderConfig("discard"),)
    readers = []
    for name, entry in section.items():
        where = f"[readers.{name}]"
        if name not in ("discard", "cars") or not isinstance(entry, Mapping):
            problems.append(f"{where}: readers are 'discard' and 'cars', each a table")
            continue
        if entry.get("kind", "simulated") not in READER_KINDS or entry.get("bus", "uart") not in BUSES:
            problems.append(f"{where}: kind is one of {', '.join(READER_KINDS)}, bus one of {', '.join(BUSES)}")
            continue
        fields = {k: entry[k] for k in ("kind", "bus", "port", "address", "cs_pin") if k in entry}
        if not all(isinstance(fields.get(k, ""), str) for k in ("port", "cs_pin")):
            problems.append(f"{where}: port and cs_pin are names, like \"/dev/serial0\" and \"D5\"")
            continue
        address = fields.get("address", 0x24)
        if not isinstance(address, int) or isinstance(address, bool) or not 0 <= address <= 0x7F:
            problems.append(f"{where}: address is an I2C address from 0x00 to 0x7f, not {address!r}")
            continue
        if name in on_hub:
            problems.append(f"{where}: the {name} reader is also on the hub ([hub] readers); keep one")
            continue
        readers.append(ReaderConfig(name, **fields))
    if "discard" not in [r.name for r in readers] + list(on_hub):
        problems.append("[readers.discard]: the discard pile needs a reader (here, or in [hub] readers)")
    return tuple(readers)


def _hub(section: dict[str, Any], problems: list[str]) -> HubConfig:
    unknown = set(section) - {"port", "readers"}
    if unknown:
        problems.append(f"[hub] unknown key(s): {', '.join(sorted(unknown))}")
    port = section.get("port", "auto")
    if not isinstance(port, str) or not port:
        problems.append(f"[hub] port: \"auto\" or a serial device like \"/dev/ttyACM1\", not {port!r}")
        port = "auto"
    names = section.get("readers", list(HubConfig.readers))
    if (not isinstance(names, list) or not 1 <= len(names) <= MAX_HUB_READERS
            or not all(isinstance(n, str) and _READER_NAME.fullmatch(n) for n in names)
            or len(set(names)) < len(names)):
        problems.append(f"[hub] readers: a list of 1 to {MAX_HUB_READERS} different names (letters, digits, - "
                        "and _), the hub's readers 0, 1, ... in order, like [\"discard\", \"cars\"]")
        names = list(HubConfig.readers)
    return HubConfig(tuple(names), None if port == "auto" else port)


def _strip(section: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    """The [strip] section, checked now (its LED count may be left to the board profile) so that a bad one is
    named when the file is read, not when the strip is opened."""
    if not section:
        return {"backend": "simulated"}
    try:
        StripSettings.from_config({"count": 1, **section})
    except DataError as exc:
        problems.extend(f"[strip] {problem}" for problem in exc.problems)
    return section


def _button_kind(value: object, problems: list[str]) -> str:
    if value not in BUTTON_KINDS:
        problems.append(f"[buttons] kind: one of {', '.join(BUTTON_KINDS)}, not {value!r}")
        return "gpio"
    return str(value)


def _keyboard(section: dict[str, Any], problems: list[str]) -> bool:
    unknown = set(section) - {"enabled"}
    if unknown:
        problems.append(f"[keyboard]: unknown key(s) {', '.join(sorted(unknown))} (only enabled)")
    enabled = section.get("enabled", False)
    if not isinstance(enabled, bool):
        problems.append(f"[keyboard] enabled: true or false, not {enabled!r}")
        return False
    return enabled


def _buttons(section: dict[str, Any], problems: list[str]) -> dict[str, int]:
    pins = {k: v for k, v in section.items() if k not in ("hold_time", "kind")}
    if not pins:
        return dict(TableConfig().buttons)
    for name, pin in pins.items():
        if name not in BUTTONS:
            problems.append(f"[buttons] {name}: the buttons are {', '.join(BUTTONS)}")
        elif not isinstance(pin, int) or isinstance(pin, bool) or not 2 <= pin <= 27:
            problems.append(f"[buttons] {name}: a GPIO number from 2 to 27")
    numbers = [pin for pin in pins.values() if isinstance(pin, int)]
    if len(set(numbers)) < len(numbers):
        problems.append("[buttons]: two buttons on one pin")
    missing = set(BUTTONS) - set(pins)
    if missing:
        problems.append(f"[buttons]: missing {', '.join(sorted(missing))}")
    return pins
