"""The parity check reads figures.json a figure at a time (site_builder/phases/parity.py ``figure_entries``)."""

from __future__ import annotations

import io
import json

import pytest

from site_builder.errors import BuildError
from site_builder.phases import parity

FIGURES = [
    {
        "key": f"sim.k{i}",
        "text": f"{i}.5 × 10³ \u2248 “x”",
        "pages": [f"/p{j}/" for j in range(i)],
        "source": {"file": "data/sim/results.md", "section": "S", "row": [f"r{i}"], "column": "c"},
    }
    for i in range(40)
]
WITHOUT_PAGES = [{k: v for k, v in f.items() if k != "pages"} for f in FIGURES]


def compact() -> str:
    return json.dumps({"figures": FIGURES}, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 20])
def test_a_list_as_the_build_writes_it_is_read_a_figure_at_a_time(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(parity, "CHUNK", chunk)
    assert list(parity.figure_entries(io.StringIO(compact()))) == WITHOUT_PAGES


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"figures": FIGURES}, indent=2, ensure_ascii=False),  # another layout: read whole
        compact().replace('},{"key"', '} ,\n {"key"').replace("]}", " ]\n}\n"),  # spaces between figures
        '{"figures":[]}',
    ],
)
def test_any_json_layout_gives_the_same_figures(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(parity, "CHUNK", 5)
    expected = WITHOUT_PAGES if "key" in text else []
    assert list(parity.figure_entries(io.StringIO(text))) == expected


@pytest.mark.parametrize(
    "text",
    [compact()[:-300], compact() + "x", compact().replace('},{"key"', '};{"key"', 1), compact()[:-1], "{"],
)
def test_a_damaged_list_is_one_line_naming_figures_json(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(parity, "CHUNK", 11)
    with pytest.raises(BuildError) as e:
        list(parity.figure_entries(io.StringIO(text)))
    assert str(e.value).startswith("figures.json: expected ") and "\n" not in str(e.value)
