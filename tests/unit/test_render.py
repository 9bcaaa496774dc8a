"""Markdown figure references, results-page anchors and the results.md table reader."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder import mdtables
from site_builder.content.pages import Page
from site_builder.content.parse import check_refs, parse_page
from site_builder.errors import InputError
from site_builder.markdown.parser import make_markdown
from site_builder.render.results_page import render_results
from site_builder.results.figures import Figure, Registry, Source

RESULTS = """# Title

## 1. First

| Run | Tensor | Value |
|---|---|---|
| C, 1d 64 | momentum | 0.145 |
| C, 1d 64 | delta | 0.000 |
| B, 2d 64 | momentum | a \\| b |
"""


def registry() -> Registry:
    reg = Registry()
    src = Source("data/x/results.md", "1. First", ("C, 1d 64", "delta"), "Value", "x/results/")
    reg.add(Figure("x.delta", 0.0, "0.000", src))
    return reg


def test_fig_reference_renders_text_key_and_source():
    reg = registry()
    html = make_markdown().render("Kept :fig[x.delta] of it.", {"registry": reg, "page": "p/", "root": "../"})
    assert ">0.000</a>" in html
    assert 'data-fig="x.delta"' in html
    assert 'href="../x/results/#1-first--c-1d-64-delta"' in html


def test_collect_finds_figures_and_charts_with_their_lines(tmp_path):
    body = "one\n\ntwo :fig[x.delta] and\nthree :fig[x.other]\n\n::chart[loss_curves]\n\n`:fig[in.code]`\n"
    page = Page(tmp_path / "a.md", "content/a.md", "a/", "A", "page", body, 5)
    parsed = parse_page(page, make_markdown())
    assert parsed.figs == [("x.delta", "line 7"), ("x.other", "line 8")]
    assert parsed.charts == [("loss_curves", "line 10")]


def test_unknown_key_names_file_and_line(tmp_path):
    page = Page(tmp_path / "a.md", "content/a.md", "a/", "A", "page", "one\n\ntwo :fig[nope]\n", 5)
    with pytest.raises(
        InputError,
        match=r"content/a\.md: line 7: expected a registered figure key; list them with python -m site_builder figures \[PATTERN\], found 'nope'",
    ):
        check_refs(parse_page(page, make_markdown()), registry().figures, {})


def test_unknown_chart_names_file_and_line(tmp_path):
    page = Page(tmp_path / "a.md", "content/a.md", "a/", "A", "page", "x\n\n::chart[nope]\n", 2)
    with pytest.raises(
        InputError, match=r"content/a\.md: line 4: expected one of the charts loss_curves, found 'nope'"
    ):
        check_refs(parse_page(page, make_markdown()), {}, {"loss_curves": None})


def test_table_reader_finds_cells_by_leading_cells():
    secs = mdtables.parse(RESULTS, "r.md")
    assert mdtables.find_cell(secs, "1. First", ("C, 1d 64", "delta"), "Value") == "0.000"
    assert mdtables.find_cell(secs, "1. First", ("B, 2d 64",), "Value") == "a | b"
    assert mdtables.find_cell(secs, "1. First", ("Z",), "Value") is None


def test_bad_table_row_is_an_error():
    with pytest.raises(InputError, match=r"r\.md: line 8: expected a table row of 3 cells, found 2 cells"):
        mdtables.parse(RESULTS.replace("| 0.000 |", ""), "r.md")


def test_results_page_has_unique_row_anchors_that_figures_link_to():
    html, toc = render_results(RESULTS, mdtables.parse(RESULTS, "r.md"), make_markdown())
    assert toc == [("1-first", "1. First")]
    assert 'id="1-first--c-1d-64-momentum"' in html and 'id="1-first--c-1d-64-delta"' in html
    assert 'id="1-first--b-2d-64-momentum"' in html
    fig = registry().get("x.delta")
    assert f'id="{fig.source.href().split("#")[1]}"' in html


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "a-1", "a-2", "b", "a 1", "A", "b-1", "c"]), min_size=1, max_size=40))
def test_heading_ids_are_the_anchor_plugins_own(titles: list[str]) -> None:
    """The site's near-linear heading ids are those mdit-py-plugins' anchors give (which count up from 1 again
    for every repeated heading, quadratic in the repeats), on any list of level-2 and level-3 headings."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.anchors import anchors_plugin

    body = "".join(f"{'##' if i % 3 else '###'} {t}\n\n" for i, t in enumerate(titles))
    reference = MarkdownIt("commonmark").use(anchors_plugin, min_level=2, max_level=3)
    ours = [t.attrGet("id") for t in make_markdown().parse(body, {}) if t.type == "heading_open"]
    theirs = [t.attrGet("id") for t in reference.parse(body, {}) if t.type == "heading_open"]
    assert ours == theirs
