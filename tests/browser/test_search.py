"""The header's search box: a static Pagefind index built with the site, loaded from the site itself.

A figure key finds the results row that holds the figure (first) and the sections that show it; a glossary
term finds its entry; every hit lands on an element of its page; no request leaves the server, no error.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import pytest

pytestmark = pytest.mark.browser

HITS = """() => Array.from(document.querySelectorAll('#site-search-results a.site-search-hit'))
  .map(a => ({href: a.href, anchor: a.dataset.anchor || null, text: a.textContent}))"""


@pytest.fixture
def page(browser, server: str):  # type: ignore[no-untyped-def]
    p = browser.new_page()
    problems: list[str] = []
    p.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    p.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    p.on("request", lambda r: None if r.url.startswith(server) else problems.append(f"outside: {r.url}"))
    p.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    yield p
    p.close()
    assert problems == []


def search(page, query: str) -> list[dict]:  # type: ignore[no-untyped-def]
    page.fill("#site-search-input", query)
    page.wait_for_function(
        "q => document.getElementById('site-search-status').textContent.includes(q)", arg=query, timeout=20_000
    )
    page.wait_for_selector("#site-search-results:not([hidden]) a.site-search-hit", timeout=5_000)
    return page.evaluate(HITS)


def lands(page, href: str) -> str:  # type: ignore[no-untyped-def]
    """Open a hit; the text of the element its fragment names (the hit must land on one)."""
    page.goto(href)
    frag = urldefrag(href)[1]
    assert frag, href
    text = page.evaluate("id => { const e = document.getElementById(id); return e ? e.textContent : null }", frag)
    assert text is not None, f"{href}: no element with that id"
    return text


def test_the_index_is_built_and_the_box_is_on_every_page(site_dir: Path, pages: list[str]) -> None:
    assert (site_dir / "pagefind" / "pagefind.js").is_file()
    assert list((site_dir / "pagefind").glob("*.pf_meta"))
    for path in pages:
        html = (site_dir / path / "index.html").read_text(encoding="utf-8")
        assert 'id="site-search-input"' in html and "assets/js/search.js" in html, path


def test_a_figure_key_finds_its_results_row_first(page, server: str, site_dir: Path) -> None:  # type: ignore[no-untyped-def]
    figures = {f["key"]: f for f in json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]}
    key = "exp.final.B"
    src = figures[key]["source"]
    page.goto(server + "cit/")
    hits = search(page, key)
    row = urljoin(server, f"{src['page']}#{src['anchor']}")
    assert hits[0]["href"] == row, hits[:3]
    shown_on = {urljoin(server, u) for u in figures[key]["pages"]}
    assert {urldefrag(h["href"])[0] for h in hits} & shown_on
    text = lands(page, row)
    assert figures[key]["text"] in text
    assert page.locator(f'[id="{src["anchor"]}"] .fig[data-fig="{key}"]').count() == 1
    for h in hits[1:6]:
        if h["anchor"]:
            lands(page, h["href"])


def test_a_glossary_term_finds_its_entry(page, server: str, site_dir: Path) -> None:  # type: ignore[no-untyped-def]
    html = (site_dir / "cit" / "glossary" / "index.html").read_text(encoding="utf-8")
    entries = re.findall(r'<div class="term-entry" id="([^"]+)">\s*<dt>([^<]+)</dt>', html)
    assert entries
    anchor, title = next(((a, unescape(t)) for a, t in entries if len(t.split()) >= 2), entries[0])
    page.goto(server + "cit/glossary/")
    hits = search(page, title)
    landing = [h for h in hits if h["anchor"] == anchor]
    assert landing, f"{title!r}: no hit on #{anchor}: {[h['href'] for h in hits]}"
    text = lands(page, landing[0]["href"])
    assert title in text


def test_the_keyboard_reaches_the_results_and_enter_opens_the_first(page, server: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(server + "figures/")
    hits = search(page, "decoupled momentum")
    page.focus("#site-search-input")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.closest('#site-search-results') !== null")
    page.keyboard.press("Escape")
    assert page.is_hidden("#site-search-results")
    page.focus("#site-search-input")
    page.keyboard.press("Enter")
    page.wait_for_url(hits[0]["href"])
    frag = urldefrag(hits[0]["href"])[1]
    assert not frag or page.evaluate("id => !!document.getElementById(id)", frag)
