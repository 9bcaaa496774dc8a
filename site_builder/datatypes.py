"""``dataclass``: the standard library's, with every method but ``__init__`` compiled when it is first called.

A build is a short process, and on a one-page edit importing its modules is most of its time. The standard
``dataclasses.dataclass`` compiles each method of a class from source as the class is made: ``__init__``,
``__repr__``, ``__eq__``, and for a frozen class ``__hash__``, ``__setattr__`` and ``__delattr__``, about 70 µs
each, 0.2 to 0.4 ms a class and a tenth of a one-page edit over the package's classes. Most of those methods are
never called in a build (a record is printed or compared in the tests, rarely by the build). This decorator
makes the same class, with the same fields, defaults, ``__init__``, ``dataclasses.fields``, ``replace`` and
``asdict``, and gives it, for each other method, a small function that compiles the standard method (the same
source, from the same ``dataclasses`` code) the first time it is called and calls it from then on.

It does so by lending ``dataclasses`` its own function maker while the class is made: the standard library makes
every method through ``dataclasses._create_fn(name, args, body, ...)`` (Python 3.11). Where that function is not
there (another Python), the class is made by the standard decorator unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T", bound=type)

_MAKE: Callable[..., Any] | None = getattr(dataclasses, "_create_fn", None)
EAGER = frozenset({"__init__"})
"""Methods made with the class: ``__init__`` (called for every record; its signature is the class's)."""


def _deferred(name: str, args: Any, body: Any, **options: Any) -> Any:
    """The method ``name`` as ``dataclasses`` asked for it: made now if it is in EAGER, else on its first call."""
    assert _MAKE is not None
    if name in EAGER:
        return _MAKE(name, args, body, **options)
    made: Callable[..., Any] | None = None

    def method(*a: Any, **k: Any) -> Any:
        nonlocal made
        if made is None:
            made = _MAKE(name, args, body, **options)
        return made(*a, **k)

    method.__name__ = name
    return method


@overload
def dataclass(cls: T, /) -> T: ...
@overload
def dataclass(cls: None = None, /, **options: Any) -> Callable[[T], T]: ...


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def dataclass(cls: T | None = None, /, **options: Any) -> T | Callable[[T], T]:
    """``dataclasses.dataclass(cls, **options)``, its methods but ``__init__`` compiled when first called."""

    def make(c: T) -> T:
        if _MAKE is None:
            return dataclasses.dataclass(c, **options)  # type: ignore[no-any-return]
        previous = dataclasses._create_fn  # type: ignore[attr-defined]
        dataclasses._create_fn = _deferred  # type: ignore[attr-defined]
        try:
            return dataclasses.dataclass(c, **options)  # type: ignore[no-any-return]
        finally:
            dataclasses._create_fn = previous  # type: ignore[attr-defined]

    return make if cls is None else make(cls)
