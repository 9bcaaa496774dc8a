"""Pages load cleanly offline: links and anchors resolve (the walk in test_csp.py checks that no page logs an error
or asks for anything off the local server)."""

from __future__ import annotations

import re
from urllib.parse import urldefrag, urljoin

import pytest

pytestmark = pytest.mark.browser

LINKS = "() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"


def test_internal_links_and_anchors_resolve(browser, server, pages):
    page = browser.new_page()
    targets: dict[str, set[str]] = {}
    for path in pages:
        page.goto(server + path)
        for href in page.evaluate(LINKS):
            if not href.startswith(server):
                continue
            url, frag = urldefrag(href)
            targets.setdefault(url, set()).add(frag)
    assert len(targets) >= len(pages)
    for url, frags in sorted(targets.items()):
        if re.search(r"/decks/[^/]+\.pdf$", url):
            # a deck's PDF is written by `make pdf` after the build (test_decks prints and checks them):
            # the link must name an existing deck page
            resp = page.goto(url[: -len(".pdf")] + "/")
            assert resp is not None and resp.status == 200, f"{url}: no deck page for this PDF"
            continue
        if not (url.endswith("/") or url.endswith(".html")):  # a download (CSV, JSON, Markdown, assets)
            got = page.request.get(url)
            assert got.status == 200 and not frags - {""}, url
            continue
        resp = page.goto(url)
        assert resp is not None and resp.status == 200, url
        # every fragment asked for this page, looked up in one call (the results pages are the target of thousands)
        missing = page.evaluate("ids => ids.filter(id => !document.getElementById(id))", sorted(frags - {""}))
        assert missing == [], f"{url}: no element with id {missing[:5]}"
    page.close()


def test_a_figure_link_lands_on_the_row_that_holds_it(browser, server):
    page = browser.new_page()
    page.goto(server + "cit/")
    fig = page.locator('.fig[data-fig="exp.final.B"]').first
    text = fig.text_content()
    href = fig.get_attribute("href")
    page.goto(urljoin(server + "cit/", href))
    frag = urldefrag(href)[1]
    row_text = page.evaluate("id => document.getElementById(id).textContent", frag)
    assert text in row_text
    page.close()


def test_hover_shows_the_source(browser, server):
    page = browser.new_page()
    page.goto(server + "cit/")
    fig = page.locator('.fig[data-fig="exp.final.A"]').first
    fig.hover()
    card = page.locator("#fig-card")  # the number card (assets/js/site.js)
    card.wait_for(state="visible")
    content = card.inner_text()
    assert "Source: " in content and "results.md" in content
    page.close()


def test_loss_chart_switches_axis_and_toggles_series(browser, server):
    page = browser.new_page()
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
    page.close()


def test_plotly_only_on_pages_with_a_chart(site_dir, pages):
    """The pinned partial bundle, and only on pages that draw a chart."""
    for path in pages:
        html = (site_dir / path / "index.html").read_text(encoding="utf-8")
        has_chart = 'class="chart"' in html
        assert ("assets/vendor/plotly/plotly-scatter-bar.min.js" in html) == has_chart, path
        assert "plotly.min.js" not in html, path
