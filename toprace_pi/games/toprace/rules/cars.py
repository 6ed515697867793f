"""The race cars of an edition, its joker and its Sprint/Breakdown pairs.

Top Race was printed with different car colours: the 2008 Pegasus box has blue,
red, yellow, black, purple and green cars and a white joker; an older edition
has light blue and white cars among its six, a black joker, and arrow cards
pairing other colours. So the cars are not constants of the engine but data of
the deck file (its "edition", read by :func:`read_edition`), and every part of
the package asks the game's or the deck's :class:`CarSet` for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass
from typing import Any

from toprace_pi.core.clone import shared

#: A colour as red, green and blue from 0 to 255: for the terminal, SVG and LEDs alike.
from toprace_pi.core.colour import RGB
from toprace_pi.schema import BYTE, unknown_keys

#: Cars of an edition: one per starting space.
EDITION_CARS = 6
PAIRS = EDITION_CARS // 2

_ID = re.compile(r"[a-z]+")
_LETTER = re.compile(r"[A-Z]")
#: The keys of a deck file's ``[deck]`` that make its edition, and of each car and the joker.
EDITION_KEYS = ("cars", "joker", "sprint_breakdown_pairs")
CAR_KEYS = ("id", "name", "rgb", "letter")
JOKER_KEYS = ("id", "name", "rgb")
#: What a broken car or joker entry gets for a missing value while the rest of the file is checked.
_STAND_IN: dict[str, Any] = {"name": "?", "rgb": (0, 0, 0), "letter": "?"}


class Car(int):
    """A race car of one edition.

    ``index`` is its place (0-5) in the edition's list; it indexes per-car lists
    (``stocks[car]``) and orders cars. ``id`` is its word in the notation and in
    files (``"lightblue"``), ``name`` what people read (``"Light blue"``),
    ``letter`` its mark on the terminal board. An edition makes each car once;
    two loads of one deck file still give equal cars, so a journal read back
    agrees with the game it belongs to.

    A car is an ``int`` whose value is its index, for its hash: the index (so set order
    never depends on the interpreter's string-hash seed) computed in C, as cars are
    looked up in dicts and sets thousands of times a race (where each stands, who owns
    it, a bot's cars), and a hash written in Python took a tenth of a race's time.
    Otherwise it is a value of its own: it equals only an equal car (never a number),
    is always true, says itself by its name, and cannot be changed.
    """

    index: int
    id: str
    name: str
    rgb: RGB
    letter: str

    def __new__(cls, index: int, id: str, name: str, rgb: RGB, letter: str) -> Car:
        car = super().__new__(cls, index)
        car.__dict__.update(index=index, id=id, name=name, rgb=rgb, letter=letter)
        return car

    __hash__ = int.__hash__

    def __eq__(self, other: object) -> bool:
        # The same object first: the cars of one game are, and this is the hot path.
        if self is other:
            return True
        if not isinstance(other, Car):
            return False if isinstance(other, int) else NotImplemented
        return (self.index == other.index and self.id == other.id and self.name == other.name
                and self.rgb == other.rgb and self.letter == other.letter)

    def __ne__(self, other: object) -> bool:
        if self is other:
            return False
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __bool__(self) -> bool:
        return True

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Car], tuple[int, str, str, RGB, str]]:
        return Car, (self.index, self.id, self.name, self.rgb, self.letter)

    __format__ = object.__format__

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Car({self.id!r})"


@dataclass(frozen=True, slots=True)
class Joker:
    """The colour printed on a movement card for "any car not on this card"."""

    id: str
    name: str
    rgb: RGB

    def __str__(self) -> str:
        return self.name


@shared
class CarSet:
    """An edition's cars in order, its joker and its Sprint/Breakdown pairs.

    Iterates, counts and indexes like the tuple of its cars; ``car in cars`` asks
    whether a car is one of them, and :meth:`parse` reads a car's id.
    """

    def __init__(self, cars: Sequence[Car], joker: Joker, pairs: Sequence[tuple[Car, Car]]) -> None:
        self._cars = tuple(cars)
        self.joker = joker
        self.pairs = tuple(pairs)
        self._by_id = {car.id: car for car in self._cars}

    def __repr__(self) -> str:
        return f"<CarSet {' '.join(self._by_id)}; joker {self.joker.id}>"

    def __iter__(self) -> Iterator[Car]:
        return iter(self._cars)

    def __len__(self) -> int:
        return len(self._cars)

    def __getitem__(self, index: int) -> Car:
        return self._cars[index]

    def __contains__(self, car: object) -> bool:
        return car in self._cars

    @property
    def ids(self) -> str:
        """The cars' ids for a message: ``"blue, red, yellow, ..."``."""
        return ", ".join(self._by_id)

    def parse(self, word: str) -> Car:
        """The car whose id ``word`` is, in any case (``"red"``, ``"Red"``)."""
        car = self._by_id.get(word.strip().lower())
        if car is None:
            raise ValueError(f"unknown car colour {word!r} (one of {self.ids})")
        return car

    def pairs_text(self) -> str:
        """The Sprint/Breakdown pairs for a message: ``"Blue-Red, Yellow-Black, ..."``."""
        return ", ".join(f"{a}-{b}" for a, b in self.pairs)


# --- reading the edition from a deck file -------------------------------------------------------------------------


def read_edition(header: Mapping[str, Any], problems: list[str]) -> CarSet:
    """The ``cars``, ``joker`` and ``sprint_breakdown_pairs`` of a deck file's ``[deck]`` table.

    Every problem is added to ``problems``, and the caller refuses the file if
    there is any. The car set is returned all the same, for checking the cards
    against: a car entry with a good id but another broken field stays in it
    with a stand-in value, so the cards naming that car are not reported too.
    """
    entries = header.get("cars")
    if not isinstance(entries, list):
        problems.append(f"[deck] cars: missing, or not a list of the edition's {EDITION_CARS} cars")
        entries = []
    fields = [found for n, entry in enumerate(entries, 1) if (found := _car_fields(entry, n, problems))]
    if len(fields) != EDITION_CARS:
        problems.append(f"[deck] cars: an edition has {EDITION_CARS} cars, not {len(fields)}")
    for key in ("id", "name", "letter", "rgb"):
        _no_two_alike(fields, key, problems)
    cars = [Car(n, f["id"], **{k: f.get(k, v) for k, v in _STAND_IN.items()}) for n, f in enumerate(fields)]
    joker = _joker(header.get("joker"), {car.id for car in cars}, problems)
    without_pairs = CarSet(cars, joker, ())
    return CarSet(cars, joker, _pairs(header.get("sprint_breakdown_pairs"), without_pairs, problems))


def _car_fields(entry: object, n: int, problems: list[str]) -> dict[str, Any] | None:
    """A car entry's good fields (always its id), or ``None`` without a good id."""
    example = '{ id = "blue", name = "Blue", rgb = [30, 100, 255], letter = "B" }'
    if not isinstance(entry, Mapping) or not _is_id(entry.get("id")):
        problems.append(f"[deck] cars #{n}: must be a table like {example}, its id one lower-case word")
        return None
    where = f"[deck] car {entry['id']!r}"
    unknown_keys(entry, CAR_KEYS, f"{where}:", problems)
    fields = _shown(entry, where, problems)
    letter = entry.get("letter")
    if isinstance(letter, str) and _LETTER.fullmatch(letter):
        fields["letter"] = letter
    else:
        problems.append(f"{where}: 'letter' must be one capital letter A-Z (its mark on the terminal board)")
    return fields


def _shown(entry: Mapping[str, Any], where: str, problems: list[str]) -> dict[str, Any]:
    """The id, name and display colour of a car or joker entry, those that are good."""
    fields: dict[str, Any] = {"id": entry["id"]}
    name = entry.get("name")
    if isinstance(name, str) and name.strip():
        fields["name"] = name.strip()
    else:
        problems.append(f"{where}: 'name' must be the name people read, like \"Light blue\"")
    rgb = entry.get("rgb")
    if isinstance(rgb, list) and len(rgb) == 3 and all(v in BYTE for v in rgb):
        fields["rgb"] = (rgb[0], rgb[1], rgb[2])
    else:
        problems.append(f"{where}: 'rgb' must be the display colour as three whole numbers 0-255, like [30, 100, 255]")
    return fields


def _is_id(value: object) -> bool:
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def _no_two_alike(fields: list[dict[str, Any]], key: str, problems: list[str]) -> None:
    values = [f[key] for f in fields if key in f]
    for value in sorted({v for v in values if values.count(v) > 1}, key=str):
        shown = list(value) if key == "rgb" else repr(value)
        problems.append(f"[deck] cars: two cars have the {key} {shown}")


def _joker(entry: object, car_ids: set[str], problems: list[str]) -> Joker:
    example = '{ id = "white", name = "White", rgb = [255, 255, 255] }'
    if not isinstance(entry, Mapping) or not _is_id(entry.get("id")):
        problems.append(f"[deck] joker: must be a table like {example}, its id one lower-case word")
        return Joker("", "?", (0, 0, 0))
    unknown_keys(entry, JOKER_KEYS, "[deck] joker:", problems)
    fields = _shown(entry, "[deck] joker", problems)
    if fields["id"] in car_ids:
        problems.append(f"[deck] joker: its id {fields['id']!r} is also a car's; the cards could not tell them apart")
    return Joker(fields["id"], fields.get("name", "?"), fields.get("rgb", (0, 0, 0)))


def _pairs(value: object, cars: CarSet, problems: list[str]) -> tuple[tuple[Car, Car], ...]:
    """The Sprint/Breakdown pairs, each car of the edition in exactly one."""
    where = "[deck] sprint_breakdown_pairs"
    if not isinstance(value, list) or len(value) != PAIRS:
        problems.append(f'{where}: must list {PAIRS} pairs of car ids, like [["blue", "red"], ...]')
        return ()
    pairs = []
    for n, pair in enumerate(value, 1):
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(w, str) for w in pair):
            problems.append(f"{where} #{n}: must be two car ids, like [\"blue\", \"red\"]")
            continue
        try:
            pairs.append((cars.parse(pair[0]), cars.parse(pair[1])))
        except ValueError as exc:
            problems.append(f"{where} #{n}: {exc}")
    named = [car for pair in pairs for car in pair]
    wrong = [f"{car.id} ({named.count(car)})" for car in cars if named.count(car) != 1]
    if len(pairs) == PAIRS and wrong:
        problems.append(f"{where}: every car is in exactly one pair; not so for {', '.join(wrong)}")
    return tuple(pairs)
