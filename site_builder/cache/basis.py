"""The site's basis: what a build derives from every input but the content pages, kept for the next build.

Most edits touch only ``content/``. A build whose code, templates, data, vendored and reference files and
options are exactly those of an earlier build that passed every check does not need to redo what depends on
them alone:

- the pinned inputs' digests (verified then against ``data/sources.yaml``), and the pins the pages show;
- every figure with its results cell (checked then against the cells; the results documents and explorer
  cases were compared then with the committed files: no drift);
- the explorers' payloads (JSON text), the figures the page templates name, and the part of the
  method page's records that no page changes (pins, models, explorers, published-against-ours tables);
- the content files' front matter as parsed, by the digest of its text (YAML is parsed, and PyYAML imported,
  only for front matter that changed), and each content file's digest, body line and front matter as that build
  read them: a file whose digest the up-to-date check finds unchanged is not read again (its body is read only if
  something asks for it, and must then have that digest).

They are stored as two JSON entries of the results cache (data only: reading them runs no code): ``basis`` holds
what the inputs but content/ give, ``basis-pages`` the content files' front matter and stamps, so that an edit to a
page (which changes only the second) rewrites only the second. Both are keyed by
:attr:`site_builder.cache.uptodate.State.basis` (a SHA-256 over those inputs, the options, Python and the installed
distributions), written only after a build passed every phase, and read back through the cache's digest
check and a check of every field's shape: a damaged entry is ignored and the build does the work again. An
entry edited on purpose (its digest recomputed) can still not change a figure the site shows: the parity
check before the swap compares every figure written with its cell in the results files on disk. What depends on the pages (which pages use a figure, the glossary's back-links,
the navigation) is never in it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import field
from typing import Any

from site_builder.cache.store import ResultsCache
from site_builder.datatypes import dataclass
from site_builder.results.figures import Row

ENTRY = "basis"
PAGES_ENTRY = "basis-pages"  # the content files' part: written alone when only content/ changed
FORMAT = 5  # of the JSON entries (5: a payload without its digest)


@dataclass
class Basis:
    """What the build derived from every input but content/: kept under their digest, read back by an edit."""

    digests: list[str]  # the pinned inputs, as "root path sha256" lines
    pins: dict[str, str]  # results file label -> "vendor path sha256" of a vendored one
    figures: dict[str, Row]  # figures.Figures.rows_of the registry
    figure_texts: str  # SHA-256 over every figure's key and text (part of the parse cache's key)
    figures_digest: str  # render/keys.figures_digest (part of every page's render key)
    records: dict[str, Any]  # the method page's records that no page changes
    payloads: dict[str, str] = field(default_factory=dict)  # explorer -> its payload's JSON text
    template_figures: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    front_matter: dict[str, Any] = field(default_factory=dict)  # parsed front matter by its text's SHA-256
    # content file label -> (its bytes' SHA-256, its body's first line, its front matter's key above): the pages as
    # this build read and checked them (content/pages.py load_content takes an unchanged one without reading it)
    pages: dict[str, tuple[str, int, str]] = field(default_factory=dict)


_ENCODE: dict[str, Callable[[Any], Any]] = {  # each field as JSON data
    "digests": lambda v: v,
    "pins": lambda v: v,
    "figures": lambda v: {k: [r[0], r[1], r[2], r[3], list(r[4]), r[5], r[6]] for k, r in v.items()},
    "figure_texts": lambda v: v,
    "figures_digest": lambda v: v,
    "records": lambda v: v,
    "payloads": dict,
    "template_figures": lambda v: {k: [list(x) for x in xs] for k, xs in v.items()},
    "front_matter": lambda v: v,
    "pages": lambda v: {k: list(x) for k, x in v.items()},
}


_PAGES = ("front_matter", "pages")
_PARTS: dict[str, tuple[str, ...]] = {
    ENTRY: tuple(name for name in _ENCODE if name not in _PAGES),
    PAGES_ENTRY: _PAGES,
}


def _doc(b: Basis, names: tuple[str, ...] = tuple(_ENCODE)) -> dict[str, Any]:
    return {"format": FORMAT, **{name: _ENCODE[name](getattr(b, name)) for name in names}}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def to_json(b: Basis, names: tuple[str, ...] = tuple(_ENCODE)) -> str:
    return _json(_doc(b, names))


def _same(a: Basis, b: Basis, names: tuple[str, ...]) -> bool:
    """Whether ``a`` and ``b`` give the same JSON text for the fields ``names``: each field is the same object (as
    after a one-page edit, where the figures and digests are the basis's own) or gives the same text."""
    return all(
        (x := getattr(a, name)) is (y := getattr(b, name)) or _json(_ENCODE[name](x)) == _json(_ENCODE[name](y))
        for name in names
    )


class Bad(Exception):
    """The entry is not a basis this code wrote."""


def _strs(value: object, n: int | None = None) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value) or (n is not None and len(value) != n):
        raise Bad
    return value


def _map(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Bad
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise Bad
    return value


def _rows(value: object) -> dict[str, Row]:
    """The figure rows by key, each checked (one loop over thousands of rows: no call per field)."""
    out: dict[str, Row] = {}
    for k, r in _map(value).items():
        if type(r) is not list or len(r) != 7:
            raise Bad
        v, text, file, section, row, column, page = r
        if (
            type(v) in (list, dict)
            or type(text) is not str
            or type(file) is not str
            or type(section) is not str
            or type(column) is not str
            or type(page) is not str
            or type(row) is not list
        ):
            raise Bad
        for cell in row:
            if type(cell) is not str:
                raise Bad
        out[k] = (v, text, file, section, tuple(row), column, page)
    return out


def _format(text: str) -> dict[str, Any]:
    doc = _map(json.loads(text))
    if doc.get("format") != FORMAT:
        raise Bad
    return doc


def from_json(text: str, pages_text: str | None = None) -> Basis:
    """The basis in ``text`` (one entry of every field, as :func:`to_json` writes it by default), or in ``text``
    and ``pages_text`` (the two entries :func:`write` stores)."""
    doc = _format(text)
    if pages_text is not None:
        pages = _format(pages_text)
        doc = {**doc, **{name: pages[name] for name in _PAGES}}
    return Basis(
        digests=_strs(doc["digests"]),
        pins={k: _str(v) for k, v in _map(doc["pins"]).items()},
        figures=_rows(doc["figures"]),
        figure_texts=_str(doc["figure_texts"]),
        figures_digest=_str(doc["figures_digest"]),
        records=_map(doc["records"]),
        payloads={k: _str(v) for k, v in _map(doc["payloads"]).items()},
        template_figures={
            k: [(a, b) for a, b in (_strs(x, 2) for x in v)] for k, v in _map(doc["template_figures"]).items()
        },
        front_matter=_map(doc["front_matter"]),
        pages={k: _page(v) for k, v in _map(doc["pages"]).items()},
    )


def _page(value: object) -> tuple[str, int, str]:
    if not isinstance(value, list) or len(value) != 3 or type(value[1]) is not int:
        raise Bad
    return _str(value[0]), value[1], _str(value[2])


_EMPTY_PAGES = _json({"format": FORMAT, "front_matter": {}, "pages": {}})


def read(cache: ResultsCache, key: str) -> Basis | None:
    """The basis stored under ``key``, or None (none, damaged, or from another version of this code). Without its
    pages' entry (or with that entry damaged) it is the basis with no page known: every content file is read."""
    body = cache.read_bytes(ENTRY, key)
    if body is None:
        return None
    pages = cache.read_bytes(PAGES_ENTRY, key)
    try:
        text = body.decode("utf-8")
        if pages is not None:
            try:
                return from_json(text, pages.decode("utf-8"))
            except (Bad, ValueError, KeyError, TypeError, UnicodeError):
                pass
        return from_json(text, _EMPTY_PAGES)
    except (Bad, ValueError, KeyError, TypeError, UnicodeError):
        return None


def write(cache: ResultsCache, key: str, basis: Basis, kept: Basis | None = None) -> None:
    """Store each of the two entries of ``basis`` unless it is ``kept``'s as read (best effort, as every cache
    entry: a failure only costs the next build time; a value JSON cannot hold leaves the basis unwritten). The
    pages' entry is written after the other, so that it is never newer than a basis it does not belong to."""
    for name, names in _PARTS.items():
        try:
            if kept is not None and _same(basis, kept, names):
                continue
            text = to_json(basis, names)
        except (TypeError, ValueError):
            return
        cache.write_bytes(name, key, text.encode("utf-8"))
