"""Reading the tables of a results.md: section title -> tables -> rows of cell texts.

Used to check each figure against the cell it claims to come from, and to lay out results pages
with an anchor per section and per row.
"""

from __future__ import annotations

import re
from dataclasses import field

from site_builder.datatypes import dataclass
from site_builder.errors import InputError

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


@dataclass
class MdTable:
    """A Markdown table of a results file: its header line, columns and rows of cell text."""

    line: int  # 1-based line of the header row
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class MdSection:
    """A heading of a results file and the tables under it."""

    title: str
    level: int
    line: int
    tables: list[MdTable] = field(default_factory=list)


def split_row(line: str) -> list[str]:
    """Cells of a pipe-table row; ``\\|`` is a literal bar."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = re.split(r"(?<!\\)\|", body)
    return [c.strip().replace("\\|", "|") for c in cells]


def _is_delimiter(line: str) -> bool:
    cells = split_row(line)
    return bool(cells) and all(re.fullmatch(r":?-{3,}:?", c) for c in cells)


def parse(text: str, file: str) -> list[MdSection]:
    """Sections (by heading) with their pipe tables. A table row with the wrong cell count is an error."""
    sections: list[MdSection] = [MdSection("", 0, 0)]
    lines = text.splitlines()
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        elif not in_fence and (h := HEADING.match(line)):
            sections.append(MdSection(h.group(2), len(h.group(1)), i + 1))
        elif not in_fence and line.lstrip().startswith("|") and i + 1 < len(lines) and _is_delimiter(lines[i + 1]):
            table = MdTable(i + 1, split_row(line))
            i += 2
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                cells = split_row(lines[i])
                if len(cells) != len(table.columns):
                    raise InputError(
                        file, f"line {i + 1}", f"a table row of {len(table.columns)} cells", f"{len(cells)} cells"
                    )
                table.rows.append(cells)
                i += 1
            sections[-1].tables.append(table)
            continue
        i += 1
    return sections


def headings(text: str) -> list[tuple[str, int]]:
    """The (title, level) of each section :func:`parse` finds (the untitled part before the first heading too),
    without reading the tables."""
    found = [("", 0)]
    in_fence = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        elif not in_fence and line.startswith("#") and (h := HEADING.match(line)):
            found.append((h.group(2), len(h.group(1))))
    return found


def find_cell(sections: list[MdSection], section: str, row: tuple[str, ...], column: str) -> str | None:
    """The text of the cell in ``section`` whose leading cells equal ``row``, under header ``column``."""
    for s in sections:
        if s.title != section:
            continue
        for t in s.tables:
            if column not in t.columns:
                continue
            ci = t.columns.index(column)
            for r in t.rows:
                if tuple(r[: len(row)]) == row:
                    return r[ci]
    return None
