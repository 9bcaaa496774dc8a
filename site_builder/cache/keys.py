"""What each page's HTML depends on, as one SHA-256 per page: the keys of the render cache.

A page is rendered from (1) the code and templates, (2) the site-wide values the renderer holds (navigation,
page titles, results files, every figure and the pages that use it, the glossary with its generated back-links,
the decks as the hubs list them) and (3) its own planned page (its content file, kind-specific data, results
document). A chart's payload is not in a page but in a file of its own (explorers/NAME.json), which the page
names.

Which of (2) a page depends on is not listed anywhere: the renderer notes each site-wide value as the page's
render reads it (as Sphinx's ``note_dependency`` and Lektor's ``record_dependency`` do), and the page's key is
made from the values it read, each taken whole, every attribute it holds (see :func:`fingerprint`). So a field
added to a glossary entry or a deck is in the key of every page that reads it the moment it exists, and a value
added to the renderer is in the key of the pages that read it the first time they do. The names a page read are
kept beside its entry (under (1) and (3)), and the next build checks the current digests of those names.
An object may instead name what it is made from (``__key_parts__``, see :func:`made_from`): a deck's slides and
source links are made from its content file alone (with the code, which every key holds), so the deck's key takes
that file's page, not the hundred objects split from it. An edit to one page's prose changes only that page's
key; an edit that other pages can see (a title, a figure used, a term, a slide) changes the keys of the pages that
read it. A cache hit writes the stored HTML (and CSV tables) byte for byte as rendering would.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache, cached_property
from pathlib import PurePath
from typing import Any

from site_builder.content.plan import PlannedPage
from site_builder.results.figures import Registry


def made_from(value: Any) -> tuple[Any, ...] | None:
    """What ``value`` is made from, when its class says so with a ``__key_parts__`` method: a value wholly derived by
    the build's code from those parts (the code is in every key) is keyed by them instead of by its attributes,
    which are many small objects for a deck's slides. None: it is taken whole."""
    how = getattr(type(value), "__key_parts__", None)
    return None if how is None else tuple(how(value))


def fingerprint(value: Any, _open: frozenset[int] = frozenset()) -> Any:
    """``value`` as JSON data holding everything in it: every public attribute of an object (dataclass or not,
    whatever fields it has), every item of a mapping or sequence. Functions and fields typed as functions are
    left out (the code is in the key as source) and so are private attributes (``_tokens``: parsed again from the text that is in). An object
    met again inside itself is written as a reference to its type. Cached properties are computed first."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, PurePath):
        return value.as_posix()
    if id(value) in _open:
        return ["<cycle>", type(value).__qualname__]
    inner = _open | {id(value)}
    if isinstance(value, Mapping):
        return [[fingerprint(k, inner), fingerprint(v, inner)] for k, v in value.items()]
    if isinstance(value, list | tuple):
        return [fingerprint(v, inner) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((fingerprint(v, inner) for v in value), key=json.dumps)
    if isinstance(value, Callable):  # type: ignore[arg-type]
        return "<code>"
    parts = made_from(value)
    if parts is not None:
        return [type(value).__qualname__, "<made from>", [fingerprint(v, inner) for v in parts]]
    return [type(value).__qualname__, {k: fingerprint(v, inner) for k, v in _public(value).items()}]


def _public(value: Any) -> dict[str, Any]:
    """An object's attributes that a key holds: the public ones that are not functions or fields typed as
    functions, its cached properties computed first (whether or not they were read before: the same object, the
    same key)."""
    attrs = getattr(value, "__dict__", None)
    if attrs is None:
        raise TypeError(f"render key: cannot take a {type(value).__qualname__} as it is")
    for name in _lazy(type(value)):
        if name not in attrs:
            getattr(value, name)
    hooks = _hooks(type(value))
    return {
        k: _digested(v) if type(v) is str and len(v) > LONG_TEXT else v
        for k, v in attrs.items()
        if not k.startswith("_") and k not in hooks and not callable(v)
    }


LONG_TEXT = 1024
"""An attribute holding a longer text (a page's Markdown body) is taken as its SHA-256 (:func:`_digested`): hashing
it costs a twentieth of writing it out as JSON, on every page of a large site."""


def _digested(text: str) -> list[str]:
    """A long text as a key holds it: its SHA-256, marked (a list, so no text can stand for it)."""
    return ["<sha256>", hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()]


@cache
def _hooks(cls: type) -> frozenset[str]:
    """A dataclass's fields typed as functions (how to read something: what they read is in the key)."""
    if not dataclasses.is_dataclass(cls):
        return frozenset()
    return frozenset(f.name for f in dataclasses.fields(cls) if "Callable" in str(f.type))


@cache
def _lazy(cls: type) -> tuple[str, ...]:
    """A class's cached properties (a fingerprint takes them computed)."""
    return tuple(k for k, v in vars(cls).items() if isinstance(v, cached_property))


_memo: dict[int, tuple[Any, list[str], frozenset[int]]] | None = None  # inside remembering()
_PLAIN = frozenset({str, int, bool, float})  # what json writes as itself (a float as its repr, as fingerprint does)


@contextmanager
def remembering() -> Iterator[None]:
    """Inside this block each object's part (its type and the SHA-256 of its attributes' text) is made once and
    reused wherever it is met again with the same text (the pages' keys share their glossary, decks and results
    files): a part is reused only where none of the objects written around it is inside it, and kept only when
    its text met no cycle back to an object around it, so the texts are those made without the block. The
    objects must not change inside it."""
    global _memo
    outer, _memo = _memo, {}
    try:
        yield
    finally:
        _memo = outer


def _text(value: Any) -> str:
    """``value``'s fingerprint as JSON text, the fast way: the JSON encoder walks strings, numbers, lists, tuples
    and dicts itself and hands every other value to ``parts``, which writes an object as its type and the SHA-256
    of its public attributes' text (made the same way, so an object met again inside itself is seen, as in
    :func:`fingerprint`). A value the encoder cannot take (a dict keyed by something other than text) is
    taken by :func:`fingerprint` instead. Either way the same value always gives the same text."""
    inside: dict[int, int] = {}  # the objects being written -> their depth, outermost 0
    # per object being written: the shallowest depth a cycle in it went back to, and the objects written in it
    frames: list[tuple[list[int], set[int]]] = [([0], set())]
    memo = _memo

    def text(v: Any) -> str:
        try:
            return json.dumps(v, ensure_ascii=False, separators=(",", ":"), default=parts)
        except (TypeError, ValueError):
            return "\0" + json.dumps(fingerprint(v), ensure_ascii=False, separators=(",", ":"))

    def parts(v: Any) -> Any:
        if isinstance(v, PurePath):
            return v.as_posix()
        if isinstance(v, set | frozenset):
            return sorted(text(x) for x in v)
        if isinstance(v, Callable):  # type: ignore[arg-type]
            return "<code>"
        name = type(v).__qualname__
        if id(v) in inside:
            reach = frames[-1][0]
            reach[0] = min(reach[0], inside[id(v)])
            return ["<cycle>", name]
        if memo is not None:
            kept = memo.get(id(v))
            if kept is not None and kept[0] is v and not any(a in kept[2] for a in inside):
                frames[-1][1].update(kept[2])
                return kept[1]
        parts_made_from = made_from(v)
        if parts_made_from is not None:
            held: Any = ["<made from>", list(parts_made_from)]
        elif isinstance(v, Mapping):
            held = [[k, x] for k, x in v.items()]
        else:
            held = _public(v)
            if all(x is None or type(x) in _PLAIN for x in held.values()):
                # text, numbers and flags only (a source link, a reference): written out whole, with no digest
                # of its own, since nothing inside it can lead back to an object
                return [name, held]
        depth = inside[id(v)] = len(inside)
        frames.append(([depth], {id(v)}))
        try:
            made = [name, hashlib.sha256(text(held).encode()).hexdigest()]
        finally:
            del inside[id(v)]
            (back,), within = frames.pop()
        outer = frames[-1]
        outer[1].update(within)
        if back < depth:  # its text holds a cycle to an object around it: true only where it was met
            outer[0][0] = min(outer[0][0], back)
        elif memo is not None:
            memo[id(v)] = (v, made, frozenset(within))
        return made

    return text(value)


def digest(*parts: Any) -> str:
    """A SHA-256 over the fingerprints of ``parts``."""
    h = hashlib.sha256()
    for part in parts:
        h.update(_text(part).encode())
        h.update(b"\n")
    return h.hexdigest()


def figures_digest(registry: Registry) -> str:
    """A digest of every figure with its value, text and source (not of the pages using them): the part of the site
    state that only the results change (kept in the basis, site_builder/cache/basis.py)."""
    h = hashlib.sha256()
    for f in registry.figures.values():
        s = f.source
        h.update(json.dumps([f.key, repr(f.value), f.text, s.file, s.section, list(s.row), s.column, s.page]).encode())
        h.update(b"\n")
    return h.hexdigest()


def own_key(code: str, p: PlannedPage) -> str:
    """(1) and (3) above: what one page is made from besides the site-wide values, the first half of its key."""
    return digest(code, p)


def page_key(own: str, reads: list[tuple[str, str]]) -> str:
    """A page's render key: its :func:`own_key` and, for each site-wide value its render read (2), the value's name
    and digest, as recorded while it was rendered (``site_builder.render.pages.Shared``). Hashed as lines of
    text (names are identifiers, digests hex: no line can stand for another), not through :func:`digest`, which
    writes them out as JSON first: this runs for every page of every build."""
    h = hashlib.sha256(f"page key\n{own}\n".encode())
    for name, value in reads:
        h.update(f"{name}\0{value}\n".encode())
    return h.hexdigest()
