"""What the reader experience needs from the renderer: figure links in results tables, labelled scrolling
tables, and the published value of a figure in figures.json."""

from __future__ import annotations

import json

from site_builder import mdtables
from site_builder.markdown.parser import make_markdown
from site_builder.render.results_page import render_results
from site_builder.results.figures import Figure, Registry, ResultsFile, Source
from tests.conftest import PROJECT

RESULTS = """# Title

## 1. First

| Run | Tensor | Value |
|---|---|---|
| C, 1d 64 | momentum | 0.145 |
| C, 1d 64 | delta | 0.000 |
| B, 2d 64 | momentum | 0.145 |

## 2. Published figures and ours

| Figure key | Published | Ours | Reproduced |
|---|---|---|---|
| x.delta | 0.001 | 0.000 | no |

| Figure | Published | Ours | Reproduced |
|---|---|---|---|
| The first momentum | 0.145 | 0.145 | yes |
"""


def registry() -> Registry:
    reg = Registry()
    delta = Source("data/x/results.md", "1. First", ("C, 1d 64", "delta"), "Value", "x/results/")
    first = Source("data/x/results.md", "1. First", ("C, 1d 64",), "Value", "x/results/")
    reg.add(Figure("x.delta", 0.0, "0.000", delta))
    reg.add(Figure("x.first", 0.145, "0.145", first))
    return reg


def test_keyed_cells_of_a_results_page_are_figure_links() -> None:
    reg = registry()
    html, _ = render_results(
        RESULTS, mdtables.parse(RESULTS, "r.md"), make_markdown(), reg.by_cell("data/x/results.md"), "../../"
    )
    assert html.count('class="fig"') == 2
    assert 'data-fig="x.delta"' in html and 'href="../../x/results/#1-first--c-1d-64-delta"' in html
    # the first row whose leading cells match holds the figure, as the build's cell check reads it
    first_row = html.split('id="1-first--c-1d-64-momentum"')[1].split("</tr>")[0]
    assert 'data-fig="x.first"' in first_row
    last_row = html.split('id="1-first--b-2d-64-momentum"')[1].split("</tr>")[0]
    assert "fig" not in last_row
    assert '<div class="table-wrap" tabindex="0" role="region" aria-label="Table: 1. First">' in html


def test_markdown_tables_scroll_in_a_labelled_focusable_region() -> None:
    md = make_markdown()
    html = md.render("## Costs\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n| c | d |\n|---|---|\n| 3 | 4 |\n", {})
    assert html.count('<div class="table-wrap" tabindex="0" role="region"') == 2
    assert 'aria-label="Table: Costs"' in html
    html = md.render("| c | d |\n|---|---|\n| 3 | 4 |\n", {})
    assert 'aria-label="Table: c, d"' in html and html.rstrip().endswith("</table>\n</div>".rstrip())


def test_published_values_come_from_the_published_tables(tmp_path) -> None:
    path = tmp_path / "results.md"
    path.write_text(RESULTS, encoding="utf-8")
    files = {"data/x/results.md": ResultsFile("data/x/results.md", path, "x/results/", "X")}
    out = {f["key"]: f for f in registry().to_json(files)["figures"]}  # type: ignore[index, union-attr]
    assert out["x.delta"]["published"] == "0.001"  # named by key
    assert out["x.first"]["published"] == "0.145"  # named by a label, the only figure with that text


def test_a_label_matched_by_text_names_the_key_the_analysis_sets_against_it() -> None:
    """Where a labelled row of analysis §7 is matched to a figure by its text, it is the figure the analysis
    compares (the match is left out when the text is not unique)."""
    from site_builder.results.analysis import published_figures

    label = "data/analysis/results.md"
    rf = ResultsFile(label, PROJECT / label, "fopttrn/analysis/results/", "Analysis")
    keyed = json.loads((PROJECT / "data/analysis/results.json").read_text(encoding="utf-8"))["figures"]
    reg = Registry()
    for key, f in keyed.items():
        reg.add(Figure(key, f["value"], f["text"], Source(label, f["section"], (f["row"],), f["column"], rf.page)))
    want = {key: text for _label, text, key in published_figures()}
    got = reg.published({label: rf})
    assert len(got) >= 20, "too few published figures mapped"
    for key, text in got.items():
        assert want.get(key) == text, key
