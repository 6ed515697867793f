"""Copying a game's state without replaying it.

A state is plain Python objects: numbers, strings, lists, dicts, sets and small
objects holding them. :func:`clone` copies the mutable ones and shares what never
changes: immutable values (numbers, strings, tuples, frozen dataclasses, enums) and
the types a game declares :func:`shared` (its track, its deck: read, never written).
How each type is copied is worked out once per type (for an object, a function made for
its attributes: see :func:`_object_copier`), so a clone costs a walk over the state's
containers and nothing more; a type names in ``CLONE_SHALLOW`` the
attributes that only ever hold containers (lists, dicts, sets) of immutable values, or
``None`` (the log, the events, where the cars stand), which are copied without a look at
each element, and in ``CLONE_NESTED`` those that only ever hold lists of such containers,
or ``None`` (the hands), copied the same way one level down. A name wrongly declared would
leave the copy sharing a mutable value with the original; a name left out is only copied
more slowly.
"""

from __future__ import annotations

import dataclasses
import enum
import keyword
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar, cast

T = TypeVar("T")
_Copier = Callable[[Any], Any]
_IMMUTABLE = (int, float, complex, str, bytes, bool, type(None), range, frozenset, tuple, type)
_copiers: dict[type, _Copier] = {}
#: The types whose values a clone shares (their copier is :func:`_same`), as a set: the
#: attributes and elements of a state are mostly of these, and are passed over by a look here.
#: The built-in ones from the start: an attribute that holds a container may also hold ``None``.
_shared_kinds: set[type] = set(_IMMUTABLE)


def shared(cls: type[T]) -> type[T]:
    """Declare instances of ``cls`` never changed once made: a clone shares them."""
    _copiers[cls] = _same
    _shared_kinds.add(cls)
    return cls


def clone(value: T) -> T:
    """An independent copy of ``value``: changing one never changes the other."""
    return _copier(type(value))(value)


def copy_shallow(value: T, own: Iterable[str]) -> T:
    """A copy of the object ``value`` that shares what its attributes hold, but for the lists, dicts
    and sets of the attributes named in ``own`` (a name it does not have is passed over), each copied
    one level: an assignment to an attribute of the copy, or to an item of one of those, leaves
    ``value`` as it was; a change made to anything else they hold shows in both. Many times cheaper
    than :func:`clone`, for a copy read for a moment and dropped (a seat's view, made at every decision)."""
    copy = object.__new__(type(value))
    fields = copy.__dict__
    fields.update(value.__dict__)
    for name in own:
        item = fields.get(name)
        if item is not None:
            fields[name] = item.copy()
    return copy


def _copier(cls: type) -> _Copier:
    found = _copiers.get(cls)
    if found is None:
        found = _copiers[cls] = _make_copier(cls)
        if found is _same:
            _shared_kinds.add(cls)
    return found


def _make_copier(cls: type) -> _Copier:
    if issubclass(cls, _IMMUTABLE) or issubclass(cls, enum.Enum) or _frozen(cls):
        return _same
    if cls is list:
        return _copy_list
    if cls is dict:
        return _copy_dict
    if cls is set:
        return set.copy
    if hasattr(cls, "__dict__") and not hasattr(cls, "__slots__") and cls.__setattr__ is object.__setattr__:
        return partial(_copy_object, made={})
    raise TypeError(f"cannot clone a {cls.__name__}: declare it shared() or give it a __dict__ (and no __setattr__)")


def _frozen(cls: type) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    return dataclasses.is_dataclass(cls) and params is not None and params.frozen


def _same(value: Any) -> Any:
    return value


def _all_same(values: Iterable[Any]) -> bool:
    """Whether every one of ``values`` is shared by a clone (told by the values' types, each looked at once)."""
    kinds = set(map(type, values))
    return kinds <= _shared_kinds or all(_copier(kind) is _same for kind in kinds)


def _copy_list(items: list[Any]) -> list[Any]:
    """A list of immutable values is copied in one go; any other element by element."""
    if _all_same(items):
        return list(items)
    return [clone(item) for item in items]


def _copy_dict(items: dict[Any, Any]) -> dict[Any, Any]:
    """Keys are immutable; a dict of immutable values too is copied in one go."""
    if _all_same(items.values()):
        return dict(items)
    return {key: clone(value) for key, value in items.items()}


def _copy_object(value: Any, made: dict[tuple[str, ...], _Copier]) -> Any:
    """A new object of the same type with each attribute cloned, by the function made for the
    type's objects with these attributes in this order (an object's ``__init__`` sets them in one
    order, so there are few)."""
    fields = value.__dict__
    names = tuple(fields)
    copy = made.get(names)
    if copy is None:
        copy = made[names] = _object_copier(type(value), names)
    return copy(fields)


def _object_copier(cls: type, names: tuple[str, ...]) -> _Copier:
    """A function from an object's attributes (``names``, in that order) to a copy of the object.

    It sets the attributes one by one, as ``__init__`` does: so the copy keeps them inline, where
    the interpreter's fast paths for attribute and method look-ups find them (a copy whose ``__dict__``
    was handed over misses those paths at every look-up; a tenth of a playout). Each attribute's
    line shares an immutable value, copies a container the type names in ``CLONE_SHALLOW``
    (containers of immutable values, such as a log) or ``CLONE_NESTED`` (lists of them, such as the
    hands) without looking at its elements, and clones anything else."""
    shallow = frozenset(getattr(cls, "CLONE_SHALLOW", ()))
    nested = frozenset(getattr(cls, "CLONE_NESTED", ()))
    lines = []
    for name in names:
        if not name.isidentifier() or keyword.iskeyword(name):
            raise TypeError(f"cannot clone a {cls.__name__}: its attribute {name!r} is not a name")
        copied = "kind(v)" if name in shallow else "[i.copy() for i in v]" if name in nested else "clone(v)"
        lines.append(f"    v = fields[{name!r}]\n    kind = type(v)\n    o.{name} = v if kind in shared else {copied}")
    source = "def copy(fields):\n    o = new(cls)\n" + "\n".join(lines) + "\n    return o\n"
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "shared": _shared_kinds, "clone": clone}
    exec(source, scope)  # noqa: S102 (the source is made here, of the attribute names alone)
    return cast(_Copier, scope["copy"])
