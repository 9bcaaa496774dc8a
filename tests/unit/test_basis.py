"""site_builder/cache/basis.py: a basis entry read back is the basis written, and a damaged one is refused whole."""

from __future__ import annotations

import json
from typing import Any

import pytest

from site_builder.cache import basis

ROW = (3.5, "3.5", "data/analysis/results.md", "1. Steps", ("6N", "x"), "FLOPs", "fopttrn/analysis/results/")


def sample() -> basis.Basis:
    return basis.Basis(
        digests=["project data/a.yaml 00"],
        pins={},
        figures={"a.b": ROW, "a.c": (None, "n/a", *ROW[2:])},
        figure_texts="t",
        figures_digest="d",
        records={"r": [1]},
        pages={"content/index.md": ("ab", 3, "fm")},
    )


def test_a_basis_read_back_is_the_basis_written() -> None:
    b = sample()
    assert basis.from_json(basis.to_json(b)) == b


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: r[:6],  # a field missing
        lambda r: [*r, "x"],  # one too many
        lambda r: [[1], *r[1:]],  # a value that is a list
        lambda r: [{"v": 1}, *r[1:]],  # or an object
        lambda r: [r[0], 35, *r[2:]],  # the text not text
        lambda r: [*r[:3], None, *r[4:]],  # the section
        lambda r: [*r[:4], "6N", *r[5:]],  # the row not a list
        lambda r: [*r[:4], ["6N", 2], *r[5:]],  # a row cell not text
        lambda r: [*r[:5], ["FLOPs"], r[6]],  # the column
        lambda r: [*r[:6], 7],  # the page
        lambda r: {"row": r},  # not a list at all
    ],
)
def test_a_damaged_figure_row_is_refused(damage: Any) -> None:
    doc = json.loads(basis.to_json(sample()))
    doc["figures"]["a.b"] = damage(doc["figures"]["a.b"])
    with pytest.raises(basis.Bad):
        basis.from_json(json.dumps(doc))
