"""JavaScript weight (issue 11): what each built page loads by itself, as Chromium fetched it, gzipped.

A page with a chart loads at most 400 kB of JavaScript (gzip -9 of the files, summed): site.js and theme.js,
Plotly, the chart files (assets/js/charts/), every chart's port and page code, and on a deck page deck.js (reveal.js and its notes plugin load only when the
deck is presented). A page without a
chart loads no Plotly and no chart code at all (it still loads the site's own small scripts: site.js, theme.js,
search.js, and figures.js on the figure index). `python scripts/bench_reader.py` prints the same numbers.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

BUDGET = 400_000  # bytes of gzipped JavaScript on a page with a chart
CHART_CODE = ("assets/vendor/plotly/", "assets/js/charts/", "assets/js/explorers/", "assets/js/ports/")
CHARTS_READY = "() => Array.from(document.querySelectorAll('figure.chart')).every(f => f.dataset.ready === 'true')"


@pytest.fixture(scope="module")
def loaded(browser, server: str, site_dir: Path) -> dict[str, list[Path]]:  # type: ignore[no-untyped-def]
    """Every page of the site (the 404 page too): the script files it loaded once its charts were drawn."""
    paths = sorted(p.relative_to(site_dir).as_posix().removesuffix("index.html") for p in site_dir.rglob("index.html"))
    paths += sorted(p.name for p in site_dir.glob("*.html") if p.name != "index.html")
    out = {}
    context = browser.new_context()
    page = context.new_page()
    # one tab for every page (a tab per page cost more than the pages), with the browser's cache off so that each page
    # fetches every script it loads, as a first visit does
    context.new_cdp_session(page).send("Network.setCacheDisabled", {"cacheDisabled": True})
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url) if r.resource_type == "script" else None)
    try:
        for path in paths:
            page.goto("about:blank")
            urls.clear()
            page.goto(server + path, wait_until="networkidle")
            # Chart code loads as each chart nears the viewport, the rest when the browser is idle: wait for all.
            page.wait_for_function(CHARTS_READY, timeout=60_000)
            page.wait_for_load_state("networkidle")
            assert all(u.startswith(server) for u in urls), (path, urls)
            out[path] = sorted({site_dir / unquote(urlsplit(u).path).lstrip("/") for u in urls})
    finally:
        context.close()
    return out


def has_chart(site_dir: Path, path: str) -> bool:
    html = (site_dir / (path if path.endswith(".html") else path + "index.html")).read_text(encoding="utf-8")
    return 'id="chart-scripts"' in html


def gzipped(files: list[Path]) -> int:
    return sum(len(gzip.compress(f.read_bytes(), 9)) for f in files)


def test_every_page_with_a_chart_loads_at_most_400_kb_of_javascript(loaded, site_dir):
    charted = [p for p in loaded if has_chart(site_dir, p)]
    assert any("/decks/" in p for p in charted) and any("/decks/" not in p for p in charted), charted
    over = {}
    for path in charted:
        files = loaded[path]
        assert any("assets/vendor/plotly/" in f.as_posix() for f in files), f"{path}: Plotly not loaded"
        if "/decks/" in path:  # reveal.js loads when the deck is presented, not for its reader
            assert any(f.as_posix().endswith("assets/js/deck.js") for f in files), path
            assert not any("assets/vendor/reveal/" in f.as_posix() for f in files), path
        total = gzipped(files)
        if total > BUDGET:
            over[path] = total
    assert not over, f"over {BUDGET} B of gzipped JavaScript: {over}"


def test_a_deck_loads_reveal_and_its_notes_plugin_when_presented(browser, server: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url) if r.resource_type == "script" else None)
    try:
        page.goto(server + "fopttrn/decks/01-transforms-in-training/", wait_until="networkidle")
        assert not [u for u in urls if "/vendor/reveal/" in u]
        page.click("[data-present]")
        page.wait_for_selector(".deck-present-overlay .reveal.ready", timeout=30_000)
        got = [urlsplit(u).path.rsplit("/", 1)[-1] for u in urls if "/vendor/reveal/" in u]
        assert got == ["reveal.js", "notes.js"]
        page.keyboard.press("Escape")
        page.click("[data-present]")  # presented again: the files are not fetched a second time
        page.wait_for_selector(".deck-present-overlay .reveal.ready", timeout=30_000)
        assert len([u for u in urls if "/vendor/reveal/" in u]) == 2
    finally:
        page.close()


def test_pages_without_a_chart_load_no_plotly_and_no_chart_code(loaded, site_dir):
    plain = [p for p in loaded if not has_chart(site_dir, p)]
    assert plain, "every page has a chart?"
    for path in plain:
        chart_code = [f for f in loaded[path] if any(c in f.as_posix() for c in CHART_CODE)]
        assert not chart_code, (path, chart_code)
