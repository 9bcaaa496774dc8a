"""A results.md rendered as a page: an anchor on every section heading and every table row.

A cell that is a registered figure's source renders as that figure's link (``fig_html``), as it does on
every other page, so every keyed number has its number card; each table scrolls inside a focusable region.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from html import escape, unescape

from markdown_it import MarkdownIt

from site_builder import mdtables
from site_builder.markdown.parser import fig_html
from site_builder.results.figures import Figure, row_anchor, slug

PLAIN = re.compile(r"[^*_`\[\]\\<>&!~:]*")


def inline(md: MarkdownIt, text: str) -> str:
    """A cell's inline Markdown as HTML; plain text (most cells are numbers) skips the parser, same output."""
    if PLAIN.fullmatch(text) and "www." not in text:
        return text.replace('"', "&quot;")
    return md.renderInline(text)


def row_ids(table: mdtables.MdTable, section: str) -> list[str]:
    """Each row's anchor: the section, then the fewest leading cells that tell the row apart."""
    width = 1
    while width < len(table.columns):
        keys = [tuple(r[:width]) for r in table.rows]
        if len(set(keys)) == len(keys):
            break
        width += 1
    return [row_anchor(section, tuple(r[:width])) for r in table.rows]


TAG = re.compile(r"<[^>]*>")


def plain_text(html_text: str) -> str:
    """The text a cell's HTML shows (tags dropped, entities decoded)."""
    return unescape(TAG.sub("", html_text)).strip()


def table_csv(grid: list[list[str]]) -> str:
    """A table (its header row, then its rows, as cell HTML) as CSV of the text each cell shows."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    for row in grid:
        writer.writerow([plain_text(c) for c in row])
    return buf.getvalue()


CellKey = tuple[str, tuple[str, ...], str]  # (section title, leading row cells, column header)


def render_results(
    text: str,
    sections: list[mdtables.MdSection],
    md: MarkdownIt,
    figures: dict[CellKey, Figure] | None = None,
    root: str = "",
    csv_files: list[tuple[str, str]] | None = None,
    here: str | None = None,
) -> tuple[str, list[tuple[str, str]]]:
    """HTML of a results file (its text and its parsed tables) and its table of contents [(anchor, title)].

    ``figures`` maps the cells of this file that are figures' sources to their figures; each such cell shows
    the figure's link. As in :func:`mdtables.find_cell`, a figure names the first row whose leading cells match.
    With ``csv_files``, each table is also appended to it as a CSV file (its name under ``tables/``, its text:
    the cells as shown) and linked under the table. ``here``: the site path of the page shown (a figure whose cell
    is on it links by fragment alone).
    """
    figures = figures or {}
    placed: set[str] = set()
    labels: dict[str, int] = {}

    def cell_html(section: str, row: list[str], ci: int, column: str) -> str:
        for width in range(1, len(row) + 1):
            fig = figures.get((section, tuple(row[:width]), column))
            if fig is not None and fig.key not in placed:
                placed.add(fig.key)
                return fig_html(fig, root, here)
        return inline(md, row[ci])

    tables = {t.line: (s.title, t) for s in sections for t in s.tables}
    heading_lines = {s.line: s for s in sections if s.level}
    out: list[str] = []
    toc: list[tuple[str, str]] = []
    buf: list[str] = []
    lines = text.splitlines()

    def flush() -> None:
        if buf:
            out.append(md.render("\n".join(buf)))
            buf.clear()

    i = 0
    while i < len(lines):
        n = i + 1
        if n in heading_lines:
            flush()
            heading = _heading(heading_lines[n], md, toc)
            if heading:  # a level-1 heading is none: the page template prints the title
                out.append(heading)
            i += 1
            continue
        if n in tables:
            flush()
            section, t = tables[n]
            labels[section] = labels.get(section, 0) + 1
            out += _table(section, t, labels[section], md, cell_html, csv_files)
            i += 2 + len(t.rows)
            continue
        buf.append(lines[i])
        i += 1
    flush()
    return "\n".join(out), toc


def _heading(s: mdtables.MdSection, md: MarkdownIt, toc: list[tuple[str, str]]) -> str:
    """A section's heading as HTML, noted in ``toc``; "" for the level-1 heading (the page template prints the
    title)."""
    level = max(2, s.level) if s.level > 1 else 1
    if level == 1:
        return ""
    sid = slug(s.title)
    toc.append((sid, s.title))
    return f'<h{level} id="{sid}"><a class="anchor" href="#{sid}">{md.renderInline(s.title)}</a></h{level}>'


def _table(
    section: str,
    t: mdtables.MdTable,
    nth: int,
    md: MarkdownIt,
    cell_html: Callable[[str, list[str], int, str], str],
    csv_files: list[tuple[str, str]] | None,
) -> list[str]:
    """The ``nth`` table of ``section`` as HTML (each cell from ``cell_html``), and with ``csv_files`` its CSV file
    (appended to it) and the link to it."""
    head_cells = [inline(md, c) for c in t.columns]
    head = "".join(f"<th>{c}</th>" for c in head_cells)
    body = []
    grid = [head_cells]
    for rid, r in zip(row_ids(t, section), t.rows, strict=True):
        row = [cell_html(section, r, ci, c) for ci, c in enumerate(t.columns)]
        grid.append(row)
        cells = "".join(f"<td>{c}</td>" for c in row)
        body.append(f'<tr id="{escape(rid)}">{cells}</tr>')
    label = f"Table: {section}" + (f" ({nth})" if nth > 1 else "")
    out = [
        f'<div class="table-wrap" tabindex="0" role="region" aria-label="{escape(label)}">'
        f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    ]
    if csv_files is not None:
        name = f"{slug(section)}-{nth}.csv"
        csv_files.append((name, table_csv(grid)))
        link = f'<a href="tables/{name}" download>{escape(label.removeprefix("Table: ") or "this table")}, as CSV</a>'
        out.append(f'<p class="table-csv">Download {link}</p>')
    return out
