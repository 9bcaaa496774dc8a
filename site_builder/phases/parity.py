"""The last check before the swap: every figure the site shows equals its results cell, read from the files
themselves, whatever the caches held.

The caches (results, parsed pages, rendered pages, the basis) make a build fast, and a cache entry is only as
trustworthy as the folder it sits in. So before the new site replaces the old one, this check reads every
figure off the written pages (each ``<a class="fig">`` names its key and its cell) and off ``figures.json``,
and requires of each:

* its cell, looked up in the results file as it is on disk now (``data/<source>/results.md`` in the
  project, the experiment's own results.md in ``--vendor``), to read exactly the figure's text;
* for a figure of a committed results document, its key to name that same cell and text in the document's
  committed ``results.json`` (so a key cannot be pointed at another cell).

The files are parsed once (a few milliseconds); a page whose figure disagrees fails the build with one line.
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from site_builder import mdtables
from site_builder.errors import BuildError
from site_builder.results.producers import VENDORED_RESULTS

FIG_LINK = re.compile(
    r'<a class="fig" href="[^"]*" data-fig="([^"]*)" data-file="([^"]*)" '
    r"data-section=\"([^\"]*)\" data-row='([^']*)' data-col=\"([^\"]*)\">([^<]*)</a>"
)


ONE_CELL = re.compile(r'\["([^"\\]*)"\]')


class Cells:
    """The results files on disk, parsed on first use, and the committed figures of each results document."""

    def __init__(self, project: Path, vendor: Path) -> None:
        self.project = project
        self.vendor = vendor
        self._cells: dict[str, Index | None] = {}
        self._committed: dict[str, dict[str, dict[str, object]]] = {}
        self.seen: set[tuple[str, ...]] = set()  # figure links already checked, as written

    def _path(self, file: str) -> Path | None:
        if file == VENDORED_RESULTS.label:
            return self.vendor / VENDORED_RESULTS.file
        parts = file.split("/")
        if len(parts) == 3 and parts[0] == "data" and parts[2] == "results.md" and re.fullmatch(r"[a-z]+", parts[1]):
            return self.project / file
        return None

    def cell(self, file: str, section: str, row: tuple[str, ...], column: str) -> str | None:
        """The cell as mdtables.find_cell finds it (the first row whose leading cells are ``row``), or None."""
        if file not in self._cells:
            path = self._path(file)
            self._cells[file] = None if path is None or not path.is_file() else _index(path.read_text("utf-8"), file)
        index = self._cells[file]
        if index is None:
            raise BuildError(f"figure source {file!r}: expected a results file of the site, found none")
        if not row:
            return None
        for cells, cell in index.get((section, column, row[0]), ()):
            if cells[: len(row)] == row:
                return cell
        return None

    def committed(self, file: str) -> dict[str, dict[str, object]] | None:
        """The ``figures`` of the results.json beside a committed results.md; None for the vendored file."""
        if file.startswith("vendor/"):
            return None
        if file not in self._committed:
            path = self.project / file.removesuffix(".md")
            doc = json.loads(path.with_suffix(".json").read_text("utf-8"))
            self._committed[file] = doc.get("figures", {}) if isinstance(doc, dict) else {}
        return self._committed[file]

    def check(
        self, where: str, key: str, text: str, file: str, section: str, row: tuple[str, ...], column: str
    ) -> None:
        at = f"{file} § {section} › {' / '.join(row)} › {column}"
        cell = self.cell(file, section, row, column)
        if cell != text:
            found = "no such cell" if cell is None else f"the cell reads {cell!r}"
            raise BuildError(f"{where}: figure {key} shows {text!r}: expected its cell {at} to read it, found {found}")
        committed = self.committed(file)
        if committed is not None:
            entry = committed.get(key)
            named = (
                entry is not None
                and entry.get("text") == text
                and entry.get("section") == section
                and (entry.get("row"),) == row
                and entry.get("column") == column
            )
            if not named:
                found = (
                    "no such key" if entry is None else f"it names {entry.get('text')!r} at § {entry.get('section')}"
                )
                raise BuildError(
                    f"{where}: figure {key} shows {text!r} from {at}: expected the key in {file.removesuffix('.md')}"
                    f".json to name that cell and text, found {found}"
                )


Index = dict[tuple[str, str, str], list[tuple[tuple[str, ...], str]]]


def _index(text: str, file: str) -> Index:
    """(section, column, first cell of a row) -> that table's rows starting so, in order, with the cell."""
    out: Index = {}
    for s in mdtables.parse(text, file):
        for t in s.tables:
            for r in t.rows:
                if not r:
                    continue
                row = tuple(r)
                for ci, column in enumerate(t.columns[: len(r)]):
                    out.setdefault((s.title, column, r[0]), []).append((row, r[ci]))
    return out


def _row(attr: str) -> tuple[str, ...]:
    """A link's ``data-row`` (a JSON list of strings), read directly when it is one plain string."""
    m = ONE_CELL.fullmatch(attr)
    return (m.group(1),) if m else tuple(json.loads(attr))


def check_html(where: str, text: str, cells: Cells) -> int:
    """Every figure link of one page's HTML. Returns the number of links."""
    n = 0
    for found in FIG_LINK.findall(text):
        n += 1
        if found in cells.seen:  # the same figure, cell and text as a link checked before
            continue
        cells.seen.add(found)
        key, file, section, row, column, shown = (html.unescape(x) for x in found)
        cells.check(where, key, shown, file, section, _row(row), column)
    return n


def check_figure_list(source: str | TextIO, cells: Cells) -> int:
    """Every figure of ``figures.json`` (its text, or the file open as text; the figure index and the number cards
    read it)."""
    n = 0
    for f in figure_entries(io.StringIO(source) if isinstance(source, str) else source):
        s = f["source"]
        cells.check("figures.json", f["key"], f["text"], s["file"], s["section"], tuple(s["row"]), s["column"])
        n += 1
    return n


FIGURE_LIST_HEAD = '{"figures":['
_SPACE = re.compile(r"[ \t\n\r]*")
CHUNK = 1 << 20  # characters read at a time


def _without_pages(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # each figure's list of the pages using it is dropped as soon as it is read (what is checked is its text and
    # cell): a large site's lists are hundreds of thousands of strings
    return {k: v for k, v in pairs if k != "pages"}


def figure_entries(stream: TextIO) -> Iterator[dict[str, Any]]:
    """The figures of a figure list, read a figure at a time: a large site's list is tens of MB, held neither as
    one text nor as one object. A list not laid out as the build writes it (``{"figures":[`` first) is read
    whole, as any JSON; one that is not JSON is a one-line error."""
    head = stream.read(len(FIGURE_LIST_HEAD))
    if head != FIGURE_LIST_HEAD:
        try:
            doc = json.loads(head + stream.read(), object_pairs_hook=_without_pages)
            figures = doc["figures"]
        except (ValueError, KeyError, TypeError) as e:
            raise BuildError(f"figures.json: expected the figure list as JSON, found {e}") from None
        yield from figures
        return
    decoder = json.JSONDecoder(object_pairs_hook=_without_pages)
    buf, at, eof, first = "", 0, False, True

    def more() -> bool:
        nonlocal buf, at, eof
        if eof:
            return False
        got = stream.read(CHUNK)
        eof = not got
        buf, at = buf[at:] + got, 0
        return not eof

    def skip() -> str:
        """The next character after any space, reading on as needed ('' at the end)."""
        nonlocal at
        while True:
            at = _SPACE.match(buf, at).end()  # type: ignore[union-attr]
            if at < len(buf) or not more():
                return buf[at : at + 1]

    while True:
        c = skip()
        if c == "]":
            at += 1
            if skip() == "}":
                at += 1
                if skip() == "":
                    return
            raise BuildError(f"figures.json: expected the list to end with ]}}, found {buf[at : at + 20]!r}")
        if not first:
            if c != ",":
                raise BuildError(f"figures.json: expected ',' or ']' after a figure, found {buf[at : at + 20]!r}")
            at += 1
            skip()
        first = False
        while True:
            try:
                entry, end = decoder.raw_decode(buf, at)
                break
            except json.JSONDecodeError as e:
                if not more():
                    raise BuildError(f"figures.json: expected a figure as JSON, found {e}") from None
        at = end
        yield entry


def check_built(pages: Iterable[tuple[str, str]], figure_list: str | TextIO | None, cells: Cells) -> int:
    """The pages a build wrote ((page path, HTML), read one at a time) and its figures.json (its text or the file
    open as text; None: the same bytes as the last build's, which that build checked). Returns the number of
    figure links and entries checked."""
    n = sum(check_html(where or "/", text, cells) for where, text in pages)
    return n + (check_figure_list(figure_list, cells) if figure_list is not None else 0)


def check_site(site: Path, project: Path, vendor: Path) -> int:
    """Every figure of every page of the built folder ``site`` and of its figures.json."""
    pages = ((p.relative_to(site).as_posix(), p.read_text("utf-8")) for p in sorted(site.rglob("*.html")))
    with open(site / "figures.json", encoding="utf-8") as figure_list:
        return check_built(pages, figure_list, Cells(project, vendor))
