"""The figure registry: every number a reader sees, with the results cell it comes from.

A figure's text is formatted once, in Python, by the model side; the registry checks it equals the
cell its source names (read from the results file with the table reader), records which pages show
it, and writes ``figures.json``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder import mdtables
from site_builder.datatypes import dataclass
from site_builder.errors import BuildError
from site_builder.sources.reading import DATA_MAX_BYTES, read_text

if TYPE_CHECKING:
    from site_builder.results.doc import Value


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "x"


def row_anchor(section: str, row: tuple[str, ...]) -> str:
    """The id of a table row on a rendered results page (section slug, then the row's identifying cells)."""
    return f"{slug(section)}--{slug(' '.join(row))}"


@dataclass(frozen=True)
class Source:
    """A results cell: the file (as shown to readers), section title, identifying row cells, column header."""

    file: str
    section: str
    row: tuple[str, ...]
    column: str
    page: str  # site path of the page that renders this results file, e.g. "cit/experiment/results/"

    def describe(self) -> str:
        return f"{self.file} § {self.section} › {' / '.join(self.row)} › {self.column}"

    def anchor(self) -> str:
        """The id of the cell's row on its page."""
        return row_anchor(self.section, self.row)

    def href(self) -> str:
        return f"{self.page}#{self.anchor()}"


@dataclass(frozen=True)
class Figure:
    """A registered figure: its key, value, text as published, and its results cell."""

    key: str
    value: Value
    text: str
    source: Source


@dataclass
class ResultsFile:
    """A results markdown file figures may point at: where it is on disk and where it is rendered."""

    label: str
    path: Path
    page: str
    title: str
    series: str = "cit"
    read: Callable[[], str] | None = None  # how to read it (a pinned vendored file is read through its pin)

    def __key_parts__(self) -> tuple[str, ...]:
        """What a key holds of a results file (site_builder/cache/keys.py made_from): its label, page, title, series
        and text (as its SHA-256, marked); not where it lies on disk, which nothing rendered names (a moved or
        copied project keeps its cache), nor how it is read."""
        text = ["<text>", hashlib.sha256(self.text.encode("utf-8", "surrogatepass")).hexdigest()]
        return (self.label, self.page, self.title, self.series, *text)

    @cached_property
    def text(self) -> str:
        """The file's text, read once per build (bounded, UTF-8; any failure is a one-line InputError)."""
        if self.read is not None:
            return self.read()
        return read_text(self.path, self.label, DATA_MAX_BYTES)

    _sections: list[mdtables.MdSection] | None = field(default=None, init=False, repr=False, compare=False)
    _headings: list[tuple[str, int]] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def sections(self) -> list[mdtables.MdSection]:
        """Its sections and tables, parsed once per build (made from its text alone, so not part of a render key:
        site_builder/cache/keys.py leaves private attributes out)."""
        if self._sections is None:
            self._sections = mdtables.parse(self.text, self.label)
        return self._sections

    @property
    def headings(self) -> list[tuple[str, int]]:
        """Its sections' titles and levels, as :attr:`sections` has them, without reading its tables (a deck's
        Source: links need only these)."""
        if self._sections is not None:
            return [(x.title, x.level) for x in self._sections]
        if self._headings is None:
            self._headings = mdtables.headings(self.text)
        return self._headings


Row = tuple[object, str, str, str, tuple[str, ...], str, str]
"""A figure as the basis keeps it: value, text, and its source's file, section, row, column and page."""


class Figures(Mapping[str, Figure]):
    """Figures by key, each made from its :data:`Row` when first looked up: a build after a one-page edit
    looks up a few of them, and making all 1,685 (with their sources) would cost more than the rest of its
    collect phase."""

    def __init__(self, rows: dict[str, Row]) -> None:
        self.rows = rows
        self._made: dict[str, Figure] = {}

    def __getitem__(self, key: str) -> Figure:
        f = self._made.get(key)
        if f is None:
            value, text, file, section, row, column, page = self.rows[key]
            f = self._made[key] = Figure(key, value, text, Source(file, section, row, column, page))  # type: ignore[arg-type]
        return f

    def __contains__(self, key: object) -> bool:
        return key in self.rows

    def __iter__(self) -> Iterator[str]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    @staticmethod
    def rows_of(figures: Mapping[str, Figure]) -> dict[str, Row]:
        if isinstance(figures, Figures):
            return figures.rows
        return {
            k: (f.value, f.text, f.source.file, f.source.section, f.source.row, f.source.column, f.source.page)
            for k, f in figures.items()
        }


@dataclass
class Registry:
    """Every figure of the results files, and the pages that show each."""

    figures: Mapping[str, Figure] = field(default_factory=dict)  # a dict while built, or Figures from the basis
    # figure key -> the pages showing it, as an ordered set (dict keys) in the order their uses were noted (the plan's):
    # a digest of it needs no sort (site_builder/render/pages.py)
    used_on: dict[str, dict[str, None]] = field(default_factory=dict)
    # per results file: its figures and how many of them a page uses, as counted since the last add or use
    _counts: dict[str, tuple[int, int]] | None = field(default=None, repr=False, compare=False)

    def add(self, fig: Figure) -> None:
        if fig.key in self.figures:
            raise BuildError(f"figure registry: key {fig.key!r} registered twice")
        assert isinstance(self.figures, dict), "figures are added while the registry is built"
        self.figures[fig.key] = fig
        self._counts = None

    def counts_by_file(self) -> dict[str, tuple[int, int]]:
        """Per results file, how many figures it holds and how many of them a page shows."""
        if self._counts is None:
            counts: dict[str, list[int]] = {}
            for key in self.figures:
                c = counts.setdefault(self.file_of(key), [0, 0])
                c[0] += 1
                c[1] += 1 if self.used_on.get(key) else 0
            self._counts = {f: (a, b) for f, (a, b) in counts.items()}
        return self._counts

    def file_of(self, key: str) -> str:
        """The results file of a figure (without making it, when it is not made yet)."""
        if isinstance(self.figures, Figures):
            return self.figures.rows[key][2]
        return self.figures[key].source.file

    def get(self, key: str) -> Figure:
        return self.figures[key]

    def use(self, key: str, page: str) -> Figure:
        """Record that ``page`` shows the figure (the collect phase calls this for every reference)."""
        fig = self.figures[key]
        self.note_uses((key,), page)
        return fig

    def note_uses(self, keys: Iterable[str], page: str) -> None:
        """Record that ``page`` shows each of ``keys``, known to be registered (checked by the caller): :meth:`use`
        without making each Figure, for the hundreds of thousands of uses of a large site."""
        used_on = self.used_on
        for key in keys:
            found = used_on.get(key)
            if found is None:
                used_on[key] = {page: None}
            else:
                found[page] = None
        self._counts = None

    def check_cells(self, files: dict[str, ResultsFile]) -> int:
        """Every figure's text equals the cell its source names. Returns the number checked."""
        for fig in self.figures.values():
            src = fig.source
            if src.file not in files:
                raise BuildError(f"figure {fig.key}: source file {src.file} is not a known results file")
            cell = mdtables.find_cell(files[src.file].sections, src.section, src.row, src.column)
            if cell is None:
                raise BuildError(f"figure {fig.key}: {src.describe()}: expected a cell there, found none")
            if cell != fig.text:
                raise BuildError(
                    f"figure {fig.key}: {src.describe()}: the model gives {fig.text!r}, the cell reads {cell!r}"
                )
        return len(self.figures)

    def by_cell(self, file: str) -> dict[tuple[str, tuple[str, ...], str], Figure]:
        """The figures whose source is in ``file``, by (section, row, column): a results page links its cells."""
        out: dict[tuple[str, tuple[str, ...], str], Figure] = {}
        for f in self.figures.values():
            if f.source.file == file:
                out.setdefault((f.source.section, f.source.row, f.source.column), f)
        return out

    def published(self, files: dict[str, ResultsFile]) -> dict[str, str]:
        """Per figure key, the figure as it was published, read from the results' "published against ours"
        tables (columns Published, Ours, Reproduced). A row names its figure by key (a "Figure key" column) or
        by a label; a labelled row is matched to the one figure of its file whose text is the row's "Ours" cell
        and left out when several figures have that text (the label alone does not name the key)."""
        out: dict[str, str] = {}
        for label, rf in files.items():
            texts: dict[str, list[str]] | None = None
            for s in rf.sections:
                for t in s.tables:
                    if not {"Published", "Ours", "Reproduced"} <= set(t.columns):
                        continue
                    pi, oi = t.columns.index("Published"), t.columns.index("Ours")
                    for r in t.rows:
                        if t.columns[0] == "Figure key":
                            key = r[0]
                        else:
                            if texts is None:
                                texts = {}
                                for f in self.figures.values():
                                    if f.source.file == label:
                                        texts.setdefault(f.text, []).append(f.key)
                            found = texts.get(r[oi], [])
                            key = found[0] if len(found) == 1 else ""
                        fig = self.figures.get(key)
                        if fig is not None and fig.text == r[oi]:
                            out[key] = r[pi]
        return out

    def versions(self, files: dict[str, ResultsFile]) -> dict[str, dict[str, str]]:
        """Per figure key, its text in each data version where the versions differ, read from the results' version
        tables (columns Figure key, one per version, Moved): only the rows whose Moved cell is "yes"."""
        out: dict[str, dict[str, str]] = {}
        for rf in files.values():
            for s in rf.sections:
                for t in s.tables:
                    if len(t.columns) < 4 or t.columns[0] != "Figure key" or t.columns[-1] != "Moved":
                        continue
                    names = t.columns[1:-1]
                    for r in t.rows:
                        if r[-1] == "yes" and r[0] in self.figures:
                            out[r[0]] = dict(zip(names, r[1:-1], strict=True))
        return out

    def to_json(self, files: dict[str, ResultsFile] | None = None) -> dict[str, object]:
        """The figure list (``figures.json``); with ``files``, each figure that a results file sets against a
        published figure has that figure's text as ``published``, and each figure whose text differs between the
        vendored data versions has its text in each as ``versions``."""
        return {"figures": list(self.figure_entries(files))}

    def figure_entries(self, files: dict[str, ResultsFile] | None = None) -> Iterator[dict[str, object]]:
        """The entries of :meth:`to_json`'s ``figures``, one at a time, in key order."""
        published = self.published(files) if files else {}
        versions = self.versions(files) if files else {}
        for f in sorted(self.figures.values(), key=lambda f: f.key):
            yield {
                "key": f.key,
                "text": f.text,
                "value": f.value,
                "source": {
                    "file": f.source.file,
                    "section": f.source.section,
                    "row": list(f.source.row),
                    "column": f.source.column,
                    "page": f.source.page,
                    "anchor": f.source.anchor(),
                },
                "pages": sorted(self.used_on.get(f.key, ())),
                **({"published": published[f.key]} if f.key in published else {}),
                **({"versions": versions[f.key]} if f.key in versions else {}),
            }
