"""A results document: sections of prose and tables whose cells may carry figure keys.

The models' results producers build a :class:`ResultsDoc`; ``make results`` writes it as
``results.md`` (what a reader and the browser tests read) and ``results.json`` (the raw values and
each figure's cell). The site's figure registry takes every keyed cell as a figure whose source is
that cell: (results file, section title, row label, column header).

Row labels are the first cell of a row; within a section every (row label, column) pair that
carries a key must be unique, so that a source cell names exactly one cell.
"""

from __future__ import annotations

import json
import math
from dataclasses import field
from typing import Any

from site_builder.datatypes import dataclass

Value = float | int | str | None


@dataclass(frozen=True)
class Cell:
    """One table cell: the text printed, the unrounded value behind it, and an optional figure key."""

    text: str
    value: Value = None
    key: str | None = None


@dataclass
class Table:
    columns: list[str]
    rows: list[list[Cell]] = field(default_factory=list)

    def add(self, *cells: Cell | str) -> None:
        """Append a row; plain strings become unkeyed cells."""
        if len(cells) != len(self.columns):
            raise ValueError(f"row has {len(cells)} cells, table has {len(self.columns)} columns")
        self.rows.append([c if isinstance(c, Cell) else Cell(c) for c in cells])


@dataclass
class Section:
    title: str
    blocks: list[str | Table] = field(default_factory=list)

    def text(self, markdown: str) -> None:
        self.blocks.append(markdown.strip())

    def table(self, *columns: str) -> Table:
        t = Table(list(columns))
        self.blocks.append(t)
        return t


@dataclass(frozen=True)
class KeyedCell:
    key: str
    value: Value
    text: str
    section: str
    row: str
    column: str


@dataclass
class ResultsDoc:
    """A whole results file. ``name`` is the folder under ``data/`` (``analysis``, ``simulation``, ...)."""

    name: str
    title: str
    intro: str
    sections: list[Section] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def section(self, title: str) -> Section:
        s = Section(title)
        self.sections.append(s)
        return s

    # -- figures -------------------------------------------------------------------------------
    def keyed_cells(self) -> list[KeyedCell]:
        out: list[KeyedCell] = []
        seen_keys: set[str] = set()
        for s in self.sections:
            seen_cells: set[tuple[str, str]] = set()
            for b in s.blocks:
                if not isinstance(b, Table):
                    continue
                for row in b.rows:
                    label = row[0].text
                    for col, cell in zip(b.columns, row, strict=True):
                        if cell.key is None:
                            continue
                        if cell.key in seen_keys:
                            raise ValueError(f"{self.name}: figure key {cell.key!r} used twice")
                        if (label, col) in seen_cells:
                            raise ValueError(
                                f"{self.name}: section {s.title!r}: row {label!r} column {col!r} is not unique"
                            )
                        seen_keys.add(cell.key)
                        seen_cells.add((label, col))
                        out.append(KeyedCell(cell.key, cell.value, cell.text, s.title, label, col))
        return out

    # -- writers -------------------------------------------------------------------------------
    def to_markdown(self) -> str:
        lines = [f"# {self.title}", "", self.intro.strip(), ""]
        for s in self.sections:
            lines += [f"## {s.title}", ""]
            for b in s.blocks:
                if isinstance(b, Table):
                    lines.append("| " + " | ".join(_md_escape(c) for c in b.columns) + " |")
                    lines.append("|" + "---|" * len(b.columns))
                    for row in b.rows:
                        lines.append("| " + " | ".join(_md_escape(c.text) for c in row) + " |")
                else:
                    lines.append(b)
                lines.append("")
        return "\n".join(lines).rstrip("\n") + "\n"

    def to_json(self) -> str:
        figures = {
            k.key: {
                "value": _json_value(k.value),
                "text": k.text,
                "section": k.section,
                "row": k.row,
                "column": k.column,
            }
            for k in self.keyed_cells()
        }
        doc = {"title": self.title, "figures": figures, "data": _json_clean(self.data)}
        return json.dumps(doc, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def _md_escape(text: str) -> str:
    if "\n" in text:
        raise ValueError(f"table cell contains a newline: {text!r}")
    return text.replace("|", "\\|")


def _json_value(v: Value) -> Value:
    if isinstance(v, float) and not math.isfinite(v):
        raise ValueError(f"non-finite value {v!r} in results")
    return v


def _json_clean(obj: Any) -> Any:
    """Plain JSON types only; tuples become lists, NumPy scalars become Python numbers."""
    if isinstance(obj, dict):
        return {str(k): _json_clean(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_json_clean(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        raise ValueError(f"non-finite value {obj!r} in results data")
    return obj
