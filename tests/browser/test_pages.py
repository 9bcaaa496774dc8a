"""Pages load cleanly offline: links and anchors resolve (the walk in test_csp.py checks that no page logs an error
or asks for anything off the local server)."""

from __future__ import annotations

import re
from urllib.parse import urldefrag, urljoin

import pytest

pytestmark = pytest.mark.browser


# Every link of the page, and every id in it (what a link's fragment can land on), read in one call once it has loaded
LINKS_AND_IDS = "() => [Array.from(document.querySelectorAll('a[href]'), a => a.href), Array.from(document.querySelectorAll('[id]'), e => e.id)]"


def read_links(page, server: str, path: str, resp, loaded: dict, targets: dict) -> None:  # type: ignore[no-untyped-def]
    """``path`` as the walk loaded it into ``page`` (``resp``: its response), read at once: its status and ids go to
    ``loaded``, the fragments its links ask of each page of the site to ``targets``."""
    links, ids = page.evaluate(LINKS_AND_IDS)
    loaded[server + path] = (resp.status if resp else 0, set(ids))
    for href in links:
        if not href.startswith(server):
            continue
        url, frag = urldefrag(href)
        targets.setdefault(url, set()).add(frag)


def check_links(page, server: str, pages: list[str], loaded: dict, targets: dict) -> None:  # type: ignore[no-untyped-def]
    """Internal links and anchors resolve: every page the walk's links name answers (a link to a page the walk loaded
    is checked against that load, as a second load of the same URL would read the same: the page is read at the same
    point, once it has loaded), and holds the ids their fragments name. The walk over every page that reads them is
    tests/browser/test_csp.py's (test_every_page_loads_under_its_policy_cleanly_its_links_resolve_and_...)."""
    assert len(targets) >= len(pages)

    def load(url: str) -> tuple[int, set[str]]:
        if url not in loaded:
            resp = page.goto(url)
            loaded[url] = (resp.status if resp else 0, set(page.evaluate(LINKS_AND_IDS)[1]))
        return loaded[url]

    for url, frags in sorted(targets.items()):
        if re.search(r"/decks/[^/]+\.pdf$", url):
            # a deck's PDF is written by `make pdf` after the build (test_decks prints and checks them):
            # the link must name an existing deck page
            assert load(url[: -len(".pdf")] + "/")[0] == 200, f"{url}: no deck page for this PDF"
            continue
        if not (url.endswith("/") or url.endswith(".html")):  # a download (CSV, JSON, Markdown, assets)
            got = page.request.get(url)
            assert got.status == 200 and not frags - {""}, url
            continue
        status, ids = load(url)
        assert status == 200, url
        missing = sorted(frags - {""} - ids)
        assert missing == [], f"{url}: no element with id {missing[:5]}"


def test_a_figure_link_lands_on_the_row_that_holds_it(tab, server):
    page = tab()
    page.goto(server + "cit/")
    fig = page.locator('.fig[data-fig="exp.final.B"]').first
    text = fig.text_content()
    href = fig.get_attribute("href")
    page.goto(urljoin(server + "cit/", href))
    frag = urldefrag(href)[1]
    row_text = page.evaluate("id => document.getElementById(id).textContent", frag)
    assert text in row_text


def test_hover_shows_the_source(tab, server):
    page = tab()
    page.goto(server + "cit/")
    fig = page.locator('.fig[data-fig="exp.final.A"]').first
    fig.hover()
    card = page.locator("#fig-card")  # the number card (assets/js/site.js)
    card.wait_for(state="visible")
    content = card.inner_text()
    assert "Source: " in content and "results.md" in content


def test_loss_chart_switches_axis_and_toggles_series(tab, server):
    page = tab()
    page.goto(server + "cit/")
    page.wait_for_selector('#chart-loss_curves[data-ready="true"]')
    title = "() => document.querySelector('#chart-loss_curves .xtitle').textContent"
    assert page.evaluate(title) == "Training step"
    page.click('#chart-loss_curves button[data-axis="wire"]')
    assert "wire" in page.evaluate(title)
    # a series is hidden by its checkbox beside the chart (a hidden series keeps its trace, with no points)
    drawn = (
        "() => document.querySelector('#chart-loss_curves .js-plotly-plot').data"
        ".filter(t => t.visible !== false && t.y && t.y.length > 0).length"
    )
    before = page.evaluate(drawn)
    page.focus("#loss_curves-show-A")
    page.keyboard.press("Space")
    page.wait_for_function(f"() => ({drawn})() < {before}", timeout=5000)
    assert page.evaluate(drawn) < before


def test_plotly_only_on_pages_with_a_chart(site_dir, pages):
    """The pinned partial bundle, and only on pages that draw a chart."""
    for path in pages:
        html = (site_dir / path / "index.html").read_text(encoding="utf-8")
        has_chart = 'class="chart"' in html
        assert ("assets/vendor/plotly/plotly-scatter-bar.min.js" in html) == has_chart, path
        assert "plotly.min.js" not in html, path
