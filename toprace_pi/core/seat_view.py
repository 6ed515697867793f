"""A game as one seat sees it: what a bot decides on, read as fast as the game itself.

A view is made on a copy of the game that the game conceals from the seat (its
``conceal(seat)``): the copy holds nothing the seat may not see, every other seat's secret (and
what nobody sees, a deck's order) replaced by a stand-in made from what the seat sees, and the
log gone. So no attribute, method or trick of introspection reaches another seat's secret
through the view: the game itself is not behind it. The copy is a shallow one
(:func:`~toprace_pi.core.clone.copy_shallow`: a view is made at every decision), with lists of
its own only for what the game names in ``SEAT_SECRETS`` and ``SEAT_HIDDEN``; a game's
``conceal`` only assigns, to attributes and to items of those, so concealing the copy never
changes the game. A bot reads its view thousands of times
a race (its phase, its board, the car being moved), so a view that looked each read up in Python
cost a greedy race more than the rules did: a view shares the copy's attribute dict, and reading
through it costs what reading the game costs.
What the view must change or refuse is settled in its class, made once per game class
(:func:`_view_type`):

* each per-seat secret the game names in ``SEAT_SECRETS`` reads as a list with only
  the viewing seat's entry, the others' stand-ins shown as ``None`` (:class:`_Secret`);
* what it names in ``SEAT_HIDDEN``, its ``apply`` and its private attributes (those of
  the class, and those its instances set, covered as they first appear) are refused
  (:class:`_Refused`);
* everything else of the game's class (methods, properties, constants) is the copy's
  own, bound to the copy (:class:`_Forward`).
"""

from __future__ import annotations

from typing import Any

from toprace_pi.core.clone import copy_shallow
from toprace_pi.core.game import GameState

#: The game's own methods that change it: a seat's view does not offer them.
_MUTATORS = frozenset({"apply", "apply_notation", "conceal"})


class SeatView:
    """A game as one seat sees it, for its bot, made on a copy concealed from the seat:
    everything public reads through; each per-seat secret the game names in ``SEAT_SECRETS``
    (a list with an entry per seat) holds only this seat's own entry, the others ``None``;
    what it names in ``SEAT_HIDDEN`` (a log holding sealed choices), the private attributes
    and ``apply`` are not there at all, and no attribute can be set through it. ``seat=None``
    is a spectator, who sees no seat's secrets. ``isinstance()`` sees the game's class, so a
    variant's bot knows its rules. The view is made for the decision at hand: it shares the
    game's board, money and the like (a change to them shows in it) but not what the game
    reassigns (its phase), nor its secrets: nothing in it or reached from it holds what the
    seat may not see."""

    __slots__ = ("__dict__", "_game", "_seat")
    #: Of the view's class (see :func:`_view_type`): the names it refuses, the game's attributes its
    #: copy holds of its own (the secrets and what it hides, which ``conceal`` changes), and every
    #: attribute name of the game's instances it has covered (see :meth:`_cover`).
    _hidden: frozenset[str] = frozenset()
    _own: frozenset[str] = frozenset()
    _covered: frozenset[str] = frozenset()

    def __new__(cls, game: GameState, seat: int | None) -> SeatView:
        kind = _VIEW_TYPES.get(type(game)) or _view_type(type(game))
        game = copy_shallow(game, kind._own)
        game.conceal(seat)
        attributes = game.__dict__
        if not attributes.keys() <= kind._covered:
            kind._cover(attributes)
        view = object.__new__(kind)
        _set_dict(view, attributes)
        _set_game(view, game)
        _set_seat(view, seat)
        return view

    @classmethod
    def _cover(cls, attributes: dict[str, Any]) -> None:
        """Refuse the private attributes among ``attributes`` (the game's) that this
        view's class has not seen yet: a game may set new ones at any time."""
        for name in attributes.keys() - cls._covered:
            if name.startswith("_"):
                setattr(cls, name, _Refused(name))
        cls._covered = cls._covered.union(attributes)

    @property
    def viewer(self) -> int | None:
        """The seat whose view this is (``None``: a spectator)."""
        return _get_seat(self)

    def __getattr__(self, name: str) -> Any:
        """What neither the view's class nor the game's attributes hold comes here, and so does
        what the class refuses (Python asks here when a descriptor raises AttributeError): a
        refused name must be refused again, not looked up on the game."""
        if name.startswith("_") or name in type(self)._hidden:
            raise AttributeError(f"a seat's view of the game does not show its {name}")
        return getattr(_get_game(self), name)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a seat's view of the game cannot change it ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a seat's view of the game cannot change it ({name})")


_slot = SeatView.__dict__
#: The view's own slots, reached past its class (which refuses them as private names).
_set_dict = _slot["__dict__"].__set__
_get_game, _set_game = _slot["_game"].__get__, _slot["_game"].__set__
_get_seat, _set_seat = _slot["_seat"].__get__, _slot["_seat"].__set__


class _Forward:
    """An attribute of the game's class read from the game itself (a method comes bound
    to the game). No ``__set__``: an attribute of the game's own shadows it, as on the game."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, view: SeatView | None, kind: type | None = None) -> Any:
        return self if view is None else getattr(_get_game(view), self.name)


class _Guarded(_Forward):
    """An attribute the view answers for itself. Having a ``__set__`` makes it come before
    the game's own attribute of that name (the view's ``__setattr__`` refuses every
    assignment before this is reached)."""

    __slots__ = ()

    def __set__(self, view: SeatView, value: object) -> None:
        raise AttributeError(f"a seat's view of the game cannot change it ({self.name})")


class _Secret(_Guarded):
    """A per-seat secret: only the viewing seat's entry."""

    __slots__ = ()

    def __get__(self, view: SeatView | None, kind: type | None = None) -> Any:
        if view is None:
            return self
        value = getattr(_get_game(view), self.name)
        if value is None:
            return None
        own = _get_seat(view)
        return [entry if seat == own else None for seat, entry in enumerate(value)]


class _Refused(_Guarded):
    """Not shown at all."""

    __slots__ = ()

    def __get__(self, view: SeatView | None, kind: type | None = None) -> Any:
        if view is None:
            return self
        raise AttributeError(f"a seat's view of the game does not show its {self.name}")


#: The view class of each game class.
_VIEW_TYPES: dict[type, type[SeatView]] = {}


def _view_type(game_class: type) -> type[SeatView]:
    found = _VIEW_TYPES.get(game_class)
    if found is None:
        found = _VIEW_TYPES[game_class] = _make_view_type(game_class)
    return found


def _make_view_type(game_class: type) -> type[SeatView]:
    hidden = _MUTATORS | frozenset(getattr(game_class, "SEAT_HIDDEN", ()))
    secrets = frozenset(getattr(game_class, "SEAT_SECRETS", ()))
    body: dict[str, Any] = {"__slots__": (), "_hidden": hidden, "_own": secrets | hidden,
                            "__class__": property(_game_class)}
    body.update((name, _Forward(name)) for name in dir(game_class) if not name.startswith("_"))
    body.update((name, _Secret(name)) for name in secrets)
    body.update((name, _Refused(name)) for name in hidden | {"__dict__", "_game", "_seat"})
    return type(f"SeatView[{game_class.__name__}]", (SeatView,), body)


def _game_class(view: SeatView) -> type:
    return type(_get_game(view))
