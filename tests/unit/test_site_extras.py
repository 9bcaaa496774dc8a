"""Heading ids with a figure in them, results tables as CSV, descriptions, the sitemap and --site-url."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

import pytest

from site_builder import mdtables
from site_builder.errors import BuildError
from site_builder.markdown.parser import make_markdown
from site_builder.render import extras
from site_builder.render.results_page import render_results
from site_builder.results.figures import Figure, Registry, Source
from tests.unit.test_render import RESULTS

HEADING = "## Below ENOB :fig[sim.breakeven.enob] the repaired optics never gets there\n"


def registry() -> Registry:
    reg = Registry()
    src = Source("data/simulation/results.md", "9. Break-even", ("ENOB",), "Value", "cit/simulation/results/")
    reg.add(Figure("sim.breakeven.enob", 8, "8", src))
    return reg


def ids(md, text: str, env: dict | None = None) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.attrGet("id") for t in md.parse(text, env if env is not None else {}) if t.type == "heading_open"]


def test_a_heading_with_a_figure_takes_the_figures_text_in_its_id() -> None:
    reg = registry()
    md = make_markdown(figure_text=lambda k: reg.figures[k].text if k in reg.figures else None)
    assert ids(md, HEADING) == ["below-enob-8-the-repaired-optics-never-gets-there"]
    # the render environment's registry gives the same id (decks and glossary entries render that way)
    assert ids(make_markdown(), HEADING, {"registry": reg}) == ["below-enob-8-the-repaired-optics-never-gets-there"]
    html = make_markdown().render(HEADING, {"registry": reg, "page": "cit/", "root": "../"})
    assert html.startswith('<h2 id="below-enob-8-the-repaired-optics-never-gets-there">Below ENOB <a class="fig"')


def test_heading_ids_stay_unique_and_explicit_ones_are_kept() -> None:
    md = make_markdown(figure_text=lambda k: "8")
    text = HEADING + "\n" + HEADING + "\n## Below ENOB 8 the repaired optics never gets there\n\n## Plain\n"
    got = ids(md, text)
    base = "below-enob-8-the-repaired-optics-never-gets-there"
    assert got[:2] == [base, base + "-1"]
    assert got[2] not in got[:2] and got[2].startswith(base)
    assert got[3] == "plain"


def test_an_unknown_key_leaves_the_heading_to_the_collect_phase() -> None:
    assert ids(make_markdown(figure_text=lambda k: None), "## A :fig[nope] b\n") == ["a--b"]


def test_every_results_table_gets_a_csv_of_its_cells_as_shown() -> None:
    text = RESULTS + '\n## 2. Second\n\n| Name | Note |\n|---|---|\n| `code` | **bold**, "quoted" & more |\n'
    tables: list[tuple[str, str]] = []
    html, _ = render_results(text, mdtables.parse(text, "r.md"), make_markdown(), csv_files=tables)
    assert [n for n, _ in tables] == ["1-first-1.csv", "2-second-1.csv"]
    assert html.count('class="table-csv"') == 2
    assert 'href="tables/1-first-1.csv" download' in html
    first = list(csv.reader(io.StringIO(tables[0][1], newline="")))
    assert first == [["Run", "Tensor", "Value"], ["C, 1d 64", "momentum", "0.145"], ["C, 1d 64", "delta", "0.000"],
                     ["B, 2d 64", "momentum", "a | b"]]  # fmt: skip
    second = list(csv.reader(io.StringIO(tables[1][1], newline="")))
    assert second == [["Name", "Note"], ["code", 'bold, "quoted" & more']]
    plain, _ = render_results(text, mdtables.parse(text, "r.md"), make_markdown())
    assert "table-csv" not in plain


def test_shorten_keeps_whole_sentences_or_words() -> None:
    assert extras.shorten("Short.") == "Short."
    long = "A first sentence that is long enough. " + "word " * 60
    assert extras.shorten(long, 80) == "A first sentence that is long enough."
    cut = extras.shorten("w" * 10 + " " + "word " * 60, 80)
    assert cut.endswith("…") and len(cut) <= 81


def test_site_url_is_checked() -> None:
    assert extras.site_url(None) == ""
    assert extras.site_url("https://example.org/sub") == "https://example.org/sub/"
    for bad in ("example.org", "ftp://example.org/", "https://example.org/?q=1"):
        with pytest.raises(BuildError, match=r"^--site-url: expected an http or https address"):
            extras.site_url(bad)


def test_sitemap_lists_the_pages() -> None:
    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    for base, want in (("", ["/", "/cit/", "/a&b/"]), ("https://x.org/s/", ["https://x.org/s/", "https://x.org/s/cit/",
                                                                             "https://x.org/s/a&b/"])):  # fmt: skip
        root = ET.fromstring(extras.sitemap(["", "cit/", "a&b/"], base))
        assert [u.findtext(f"{ns}loc") for u in root.findall(f"{ns}url")] == want
