"""site_builder/datatypes.py: the standard dataclass, its methods but __init__ made on their first call."""

from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any

import pytest

from site_builder import datatypes


def shapes(decorate: Any) -> dict[str, type]:
    """The same classes made by ``decorate`` (the standard decorator or this package's)."""

    @decorate(frozen=True)
    class Point:
        x: int
        y: tuple[int, ...] = ()
        note: str = field(default="", compare=False, repr=False)

    @decorate
    class Box:
        """A box."""

        items: list[int] = field(default_factory=list)
        label: str | None = None

    @decorate(frozen=True)
    class Labelled(Point):
        label: str = "a"

    @decorate(eq=False)
    class Loose:
        n: int

    @decorate(order=True, frozen=True)
    class Ordered:
        a: int
        b: str

    return {c.__name__: c for c in (Point, Box, Labelled, Loose, Ordered)}


def behaviour(classes: dict[str, type]) -> list[object]:
    """What the classes do, as comparable values (no object identities)."""
    Point, Box, Labelled, Loose, Ordered = (classes[n] for n in ("Point", "Box", "Labelled", "Loose", "Ordered"))
    out: list[object] = []
    p, q = Point(1, (2,), note="a"), Point(1, (2,), note="b")
    out += [repr(p), p == q, hash(p) == hash(q), p == Point(2), p != Point(2), Point(1) == (1, ())]
    with pytest.raises(dataclasses.FrozenInstanceError) as e:
        p.x = 3  # type: ignore[misc]
    out.append(str(e.value))
    with pytest.raises(dataclasses.FrozenInstanceError):
        del p.x  # type: ignore[misc]
    b = Box()
    b.items.append(1)
    out += [repr(b), b == Box([1]), Box() == Box(), Box().items is not Box().items, Box.__hash__ is None]
    out += [b.__doc__, Point.__doc__, Point.__match_args__]
    lab = Labelled(1, label="z")
    out += [repr(lab), lab == Labelled(1, (), "", "z"), hash(lab) == hash(Labelled(1, label="z")), lab == p]
    out += [[f.name for f in dataclasses.fields(Labelled)], dataclasses.asdict(lab), dataclasses.is_dataclass(lab)]
    out += [repr(dataclasses.replace(lab, x=5)), repr(dataclasses.replace(b, label="c"))]
    one = Loose(1)
    out += [one == Loose(1), one == one, repr(one)]
    out += [
        Ordered(1, "b") < Ordered(2, "a"),
        Ordered(1, "b") >= Ordered(1, "a"),
        sorted([Ordered(2, "a"), Ordered(1, "z")]),
    ]
    return [repr(x) if not isinstance(x, str | bool) else x for x in out]


def test_a_class_behaves_as_the_standard_librarys() -> None:
    assert behaviour(shapes(datatypes.dataclass)) == behaviour(shapes(dataclasses.dataclass))


def test_only_init_is_made_with_the_class_and_each_other_method_once(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = datatypes._MAKE
    assert real is not None  # Python 3.11: the deferred path is the one in use
    monkeypatch.setattr(datatypes, "_MAKE", lambda name, *a, **k: made.append(name) or real(name, *a, **k))
    Point = shapes(datatypes.dataclass)["Point"]
    assert made == ["__init__"] * 5  # one for each class
    made.clear()
    p = Point(1)
    assert made == []
    assert repr(p) == repr(p) and p == Point(1) and hash(p) == hash(Point(1)) and p == Point(1)
    assert sorted(made) == ["__eq__", "__hash__", "__repr__"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 2  # type: ignore[misc]
    assert sorted(made) == ["__eq__", "__hash__", "__repr__", "__setattr__"]
    assert dataclasses._create_fn is real  # type: ignore[attr-defined]  # lent only while a class is made


def test_a_class_that_cannot_be_made_leaves_the_standard_library_as_it_was() -> None:
    real = dataclasses._create_fn  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="mutable default"):

        @datatypes.dataclass
        class Bad:
            items: list[int] = []  # noqa: RUF012

    assert dataclasses._create_fn is real  # type: ignore[attr-defined]


def test_without_the_function_maker_the_standard_decorator_makes_the_class(monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = behaviour(shapes(dataclasses.dataclass))
    real = dataclasses._create_fn  # type: ignore[attr-defined]
    monkeypatch.setattr(datatypes, "_MAKE", None)  # another Python, whose dataclasses makes methods otherwise
    lent: list[object] = []
    monkeypatch.setattr(datatypes, "_deferred", lambda *a, **k: lent.append(a) or real(*a, **k))
    assert behaviour(shapes(datatypes.dataclass)) == theirs and lent == []
