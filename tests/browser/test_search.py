"""The header's search box: the site's own index (search/), built with the site, loaded from the site itself.

A figure key finds the results row that holds the figure (first) and the sections that show it; a glossary
term finds its entry; every hit lands on an element of its page; a stemmed word finds its other forms and the
last word its completions; the browser's term normalisation is the build's, word for word; no request leaves
the server, no error.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import threading
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import pytest

from site_builder import search as search_phase
from site_builder.search.terms import terms
from tests.browser.conftest import QuietHandler, QuietServer
from tests.search_index import read_index

pytestmark = pytest.mark.browser

HITS = """() => Array.from(document.querySelectorAll('#site-search-results a.site-search-hit'))
  .map(a => ({href: a.href, anchor: a.dataset.anchor || null, text: a.textContent}))"""


@pytest.fixture
def page(tab, server: str):  # type: ignore[no-untyped-def]
    p = tab()
    problems: list[str] = []
    tab.on(p, "console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    tab.on(p, "pageerror", lambda e: problems.append(f"pageerror: {e}"))
    tab.on(p, "request", lambda r: None if r.url.startswith(server) else problems.append(f"outside: {r.url}"))
    tab.on(p, "response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    yield p
    assert problems == []


def search(page, query: str) -> list[dict]:  # type: ignore[no-untyped-def]
    """The hits for ``query`` typed into an emptied box (the status of the last query may hold this one's text:
    "trainers" holds "trainer")."""
    page.fill("#site-search-input", "")
    page.wait_for_function("() => document.getElementById('site-search-status').textContent === ''")
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


def index_of(site_dir: Path) -> dict:
    return read_index(site_dir / "search")


def fragments_of(site_dir: Path) -> dict[str, dict]:
    """Every page's fragment, by its URL."""
    return {
        url: json.loads((site_dir / "search" / "fragments" / f"{name}.json").read_bytes())
        for url, _, _, name in index_of(site_dir)["pages"]
    }


def test_the_index_is_built_and_the_box_is_on_every_page(site_dir: Path, pages: list[str]) -> None:
    index = index_of(site_dir)
    assert index["format"] == 4
    assert index["terms"] == sorted(set(index["terms"])) and len(index["postings"]) == len(index["terms"])
    assert [url for url, *_ in index["pages"]] == sorted("/" + p for p in pages)
    fragments = sorted(p.stem for p in (site_dir / "search" / "fragments").glob("*.json"))
    assert fragments == sorted(name for *_, name in index["pages"])
    assert all(t == t.strip() and t for t in index["terms"])
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


PARITY = "words => words.map(w => window.SearchIndex.terms(w))"


def test_the_browser_normalises_every_word_as_the_build_does(page, server: str, site_dir: Path) -> None:  # type: ignore[no-untyped-def]
    words = {w for f in fragments_of(site_dir).values() for w in f["words"].split(" ")}
    words |= {t for f in fragments_of(site_dir).values() for a in f["anchors"] for t in a[3].split()}
    words |= {"Trainers,", "model’s", "ΣΑΣ", "naïve", "İstanbul", "x²", "𝑥-axis", "K", "Straße", "﻿", "…"}
    words = sorted(words)
    page.goto(server)
    page.add_script_tag(url=server + "assets/js/search_index.js")
    got: list[list[str]] = []
    for i in range(0, len(words), 2000):
        got += page.evaluate(PARITY, words[i : i + 2000])
    differ = [(w, list(terms(w)), g) for w, g in zip(words, got, strict=True) if list(terms(w)) != g]
    assert len(words) > 5000
    assert differ == [], differ[:10]


def shown(page) -> tuple[str, list[str]]:  # type: ignore[no-untyped-def]
    status = page.text_content("#site-search-status")
    urls = page.evaluate("() => Array.from(document.querySelectorAll('.site-search-title')).map(a => a.href)")
    return status, urls


def marked(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('#site-search-results mark')).map(m => m.textContent)"
    )


def pages_with(site_dir: Path, match) -> set[str]:  # type: ignore[no-untyped-def]
    """The pages with a word one of whose terms ``match`` accepts (read from the fragments, not the index)."""
    return {
        url
        for url, f in fragments_of(site_dir).items()
        if any(match(t) for w in set(f["words"].split(" ")) for t in terms(w))
    }


def test_a_word_finds_its_other_forms_and_the_last_word_its_completions(page, server: str, site_dir: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(server + "fopttrn/")
    search(page, "trainers")
    trainers = shown(page)
    search(page, "trainer")
    assert shown(page)[1] == trainers[1]
    assert server + "fopttrn/trainers/results/" in trainers[1]
    want = pages_with(site_dir, lambda t: t.startswith("trainer"))
    assert trainers[0].startswith(f"{len(want)} pages match")

    search(page, "gradients")
    assert {m.lower().strip(".,;:()") for m in marked(page)} >= {"gradient", "gradients"}
    status, _ = shown(page)
    assert status.startswith(f"{len(pages_with(site_dir, lambda t: t.startswith('gradient')))} pages match")

    search(page, "optic")  # as typed: optics, optical…
    status, urls = shown(page)
    assert status.startswith(f"{len(pages_with(site_dir, lambda t: t.startswith('optic')))} pages match")
    forms = {m.lower().strip(".,;:()") for m in marked(page)}
    assert {"optical", "optics"} <= forms, forms

    search(page, "decoupled momentu")  # every word must match, the last one as typed so far
    status, urls = shown(page)
    both = pages_with(site_dir, lambda t: t == "decoupl") & pages_with(site_dir, lambda t: t.startswith("momentu"))
    assert status.startswith(f"{len(both)} page") and {urldefrag(u)[0] for u in urls} <= {server + u[1:] for u in both}
    search(page, "trainin")  # part way into an ending: its stem
    assert "training" in {m.lower().strip(".,;:()") for m in marked(page)}

    search(page, "decoupled xylophones")  # no page has both: the pages with either, said so
    status, urls = shown(page)
    assert status.startswith("No page has every word of “decoupled xylophones”;"), status
    assert {m.lower().strip(".,;:()") for m in marked(page)} == {"decoupled"}


SPLIT_FROM = 400  # postings a character's terms may hold in one term file, low enough that the site's split


@pytest.fixture
def split_server(site_dir: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The site with its search index made again with few postings allowed per term file (its common characters'
    terms in a file per two characters, as a large site's are), served on its own port."""
    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy, copy_function=os.link, ignore=shutil.ignore_patterns("search"))
    real = search_phase.SPLIT_FROM
    search_phase.SPLIT_FROM = SPLIT_FROM
    try:
        search_phase.build_index(copy, None)
    finally:
        search_phase.SPLIT_FROM = real
    srv = QuietServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(copy)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/", copy
    srv.shutdown()
    srv.server_close()


def test_a_split_index_finds_what_the_whole_one_finds_fetching_only_the_files_a_word_needs(
    page, tab, server: str, split_server: tuple[str, Path]
) -> None:  # type: ignore[no-untyped-def]
    other, folder = split_server
    keys = {key: name for key, name, _ in json.loads((folder / "search" / "index.json").read_bytes())["terms"]}
    pairs = sorted(k for k in keys if len(k) == 2)
    assert {k[0] for k in pairs} >= {"e", "s", "t"}, pairs
    read_index(folder / "search")  # every file holds its beginning's terms, with the postings counted
    split = tab()
    fetched: list[str] = []
    failed: list[str] = []
    tab.on(split, "request", lambda r: fetched.append(r.url.rsplit("/", 1)[1].removesuffix(".json")))
    tab.on(split, "response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    split.goto(other + "cit/")
    search(split, "training")
    assert {f for f in fetched if f in keys.values()} == {keys["tr"]}  # one file of two characters, no more
    page.goto(server + "cit/")
    needed: set[str] = set()
    for query in ["training", "t", "tr", "exp.final.B", "decoupled momentu", "s", "all-reduce", "optic", "2"]:
        want = [{**h, "href": h["href"].removeprefix(server)} for h in search(page, query)]
        got = [{**h, "href": h["href"].removeprefix(other)} for h in search(split, query)]
        assert got == want, query
        words = [t for w in query.split() for t in terms(w)[:1]]
        for i, w in enumerate(words):
            if not any(k[0] == w[0] for k in pairs):
                needed.add(w[0])
            elif len(w) > 1:
                needed.add(w[:2])
            else:  # one character: every file of its terms when it is the last word (a prefix), else its own
                needed |= {w} | ({k for k in pairs if k[0] == w} if i == len(words) - 1 else set())
    assert {keys[k] for k in needed if k in keys} <= set(fetched), sorted(needed)
    assert failed == []
