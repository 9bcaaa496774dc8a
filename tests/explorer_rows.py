"""The tests' own reader of the rows a results document prints, shared by the explorers' unit and browser tests:
independent of the builder's formatter and parser."""

from __future__ import annotations

import re

from tests.conftest import PROJECT


def results_md(part: str) -> str:
    """The committed results document of ``data/<part>/``, as Markdown."""
    return (PROJECT / "data" / part / "results.md").read_text(encoding="utf-8")


def section_tables(md: str, number: str) -> list[list[dict[str, str]]]:
    """The tables of section ``number`` of a results.md, each a list of {column: cell text} rows."""
    tables: list[list[dict[str, str]]] = []
    inside, header = False, None
    for line in md.splitlines():
        if line.startswith("## "):
            inside, header = line.startswith(f"## {number}. "), None
            continue
        if not inside or not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            tables.append([])
        elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
            tables[-1].append(dict(zip(header, cells, strict=True)))
    return tables


def one(texts: list[str], *where: object) -> str:
    """The one text a table cell holds (``where`` names the cell when it holds none or several)."""
    assert len(texts) == 1, (*where, texts)
    return texts[0]
