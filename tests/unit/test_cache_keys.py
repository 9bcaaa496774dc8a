"""Render keys (site_builder/cache/keys.py): the digests made inside ``remembering()`` (each object's part made
once) are the digests made without it, cycles and shared objects included; the basis (site_builder/cache/basis.py)
is written only when its text would change."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from site_builder.cache import basis, keys
from site_builder.cache.store import ResultsCache


@dataclass(eq=False)
class Node:
    name: str
    items: list[Any] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def graph() -> list[Any]:
    """Objects met in several places and in cycles, as the pages' keys meet them (a deck and its page refer to each
    other; a hub holds the decks; a term is shared)."""
    term = Node("term")
    page = Node("page", [term])
    deck = Node("deck", [page, term])
    page.extra["deck"] = deck  # page -> deck -> page
    hub = Node("hub", [deck, deck, term], {"decks": [deck]})
    other = Node("other", [hub, page])
    hub.extra["back"] = other  # hub -> other -> hub: the part of `other` differs where it is met
    return [term, page, deck, hub, other, [page, deck], {"k": hub}]


def test_remembered_digests_equal_the_digests_made_without_memory() -> None:
    values = graph()
    plain = [keys.digest(v) for v in values] + [keys.digest(*values)]
    with keys.remembering():
        for _ in range(2):  # once to fill the memory, once from it
            remembered = [keys.digest(v) for v in values] + [keys.digest(*values)]
            assert remembered == plain
        reversed_order = [keys.digest(v) for v in reversed(values)]
    assert reversed_order == plain[: len(values)][::-1]
    assert len(set(plain)) == len(plain)  # the values differ, and so do their digests


def test_a_change_outside_the_block_is_seen() -> None:
    values = graph()
    with keys.remembering():
        before = keys.digest(values[3])
    values[0].name = "changed"
    with keys.remembering():
        assert keys.digest(values[3]) != before


def _basis(**changes: Any) -> basis.Basis:
    made = basis.Basis(["a b c"], {}, {"k": (1.5, "1.5", "f", "s", ("r",), "c", "p/")}, "t", "d", {"x": [1]})
    for name, value in changes.items():
        setattr(made, name, value)
    return made


def test_the_basis_is_written_only_when_its_text_changes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert set(basis._ENCODE) == {f for f in basis.Basis.__dataclass_fields__}  # every field is compared
    store = ResultsCache(tmp_path)
    kept = _basis()
    basis.write(store, "key", _basis(), kept)
    assert list(tmp_path.iterdir()) == []  # equal fields (not the same objects): nothing written
    again = _basis(figures=kept.figures, digests=kept.digests)
    basis.write(store, "key", again, kept)
    assert list(tmp_path.iterdir()) == []
    changed = _basis(figures={"k": (2.5, "2.5", "f", "s", ("r",), "c", "p/")})
    basis.write(store, "key", changed, kept)
    assert basis.read(store, "key") == changed
    reordered = _basis(pins={"b": "y", "a": "x"})
    basis.write(store, "key2", reordered, _basis(pins={"a": "x", "b": "y"}))  # same items, another order
    assert basis.read(store, "key2") == reordered and list(basis.read(store, "key2").pins) == ["b", "a"]  # type: ignore[union-attr]


def test_an_edit_to_the_pages_alone_rewrites_only_the_pages_entry(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = ResultsCache(tmp_path)
    first = _basis(front_matter={"f1": {"title": "A"}}, pages={"content/a.md": ("d1", 3, "f1")})
    basis.write(store, "key", first)
    entries = {p.name.partition(".")[0]: p for p in tmp_path.iterdir()}
    assert set(entries) == {basis.ENTRY, basis.PAGES_ENTRY}
    kept = basis.read(store, "key")
    assert kept == first
    os.utime(entries[basis.ENTRY], ns=(1, 1))
    os.utime(entries[basis.PAGES_ENTRY], ns=(1, 1))
    edited = _basis(figures=kept.figures, front_matter={"f2": {"title": "B"}}, pages={"content/a.md": ("d2", 3, "f2")})
    basis.write(store, "key", edited, kept)
    assert entries[basis.ENTRY].stat().st_mtime_ns == 1  # not written again
    assert entries[basis.PAGES_ENTRY].stat().st_mtime_ns != 1  # written
    assert basis.read(store, "key") == edited
    # a damaged pages entry leaves the basis with no page known (every content file is read); a damaged basis is none
    raw = entries[basis.PAGES_ENTRY].read_bytes()
    entries[basis.PAGES_ENTRY].write_bytes(raw[:-3])
    assert basis.read(store, "key") == _basis(figures=kept.figures)
    entries[basis.PAGES_ENTRY].write_bytes(raw)
    entries[basis.ENTRY].write_bytes(entries[basis.ENTRY].read_bytes()[:-3])
    assert basis.read(store, "key") is None
