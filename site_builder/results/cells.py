"""What every results writer shares: a keyed cell, and the table of published figures against ours."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from site_builder.datatypes import dataclass
from site_builder.results.doc import Cell, ResultsDoc, Section, Value

NOT_PRODUCED = "not produced"


def cell(value: Value, text: str, key: str) -> Cell:
    """A table cell that is a figure: the unrounded value, the text printed, and the figure key."""
    return Cell(text, value, key)


@dataclass(frozen=True)
class Published:
    """A figure as a deck or page published it, and the figure key of the cell of ours that it is set against."""

    label: str  # the row's label in the comparison table
    text: str  # the figure as published
    key: str  # the figure key of our cell


def published_against_ours(
    section: Section, doc: ResultsDoc, figures: Iterable[Published], first_column: str = "Figure"
) -> dict[str, dict[str, Any]]:
    """Add to ``section`` a table of each published figure beside our cell's text, with the verdict
    "Reproduced": yes when the two texts are the same, character for character. Our texts are read from the
    keyed cells ``doc`` holds so far. Returns, per figure key, the published text, ours and the verdict."""
    ours = {k.key: k.text for k in doc.keyed_cells()}
    table = section.table(first_column, "Published", "Ours", "Reproduced")
    out: dict[str, dict[str, Any]] = {}
    for f in figures:
        text = ours.get(f.key, NOT_PRODUCED)
        same = text == f.text
        table.add(f.label, f.text, text, "yes" if same else "no")
        out[f.key] = {"published": f.text, "ours": text, "reproduced": same}
    return out
