"""Decks and glossaries in Chromium: present mode, fragments, topic lists, terms, back-links, PDFs (axe runs on every page, these among them, in tests/browser/test_reader.py)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def decks(pages: list[str]) -> list[str]:
    found = [p for p in pages if re.fullmatch(r"[a-z]+/decks/[^/]+/", p)]
    assert found, "the site has no deck"
    return found


@pytest.fixture(scope="module")
def glossaries(site_dir: Path, pages: list[str]) -> list[str]:
    found = [p for p in pages if 'class="glossary"' in (site_dir / p / "index.html").read_text(encoding="utf-8")]
    assert found, "the site has no glossary"
    return found


def slide_ids(page) -> list[str]:
    return page.eval_on_selector_all("section.slide", "els => els.map(e => e.id)")


def test_present_mode_keys_and_fragments(tab, server, decks):
    page = tab(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    tab.on(page, "pageerror", lambda e: errors.append(str(e)))
    for deck in decks:
        page.goto(server + deck)
        ids = slide_ids(page)
        assert len(ids) >= 3
        page.click("[data-present]")
        page.wait_for_selector(".deck-present-overlay .reveal.ready")

        def current() -> str:
            return page.evaluate("() => window.SiteDeck.current()")

        assert current() == ids[0]
        page.keyboard.press("ArrowRight")
        assert current() == ids[1] and page.evaluate("location.hash") == f"#{ids[1]}"
        page.keyboard.press("PageDown")
        assert current() == ids[2]
        page.keyboard.press("PageUp")
        assert current() == ids[1]
        page.keyboard.press("End")
        assert current() == ids[-1] and page.evaluate("location.hash") == f"#{ids[-1]}"
        page.keyboard.press("Home")
        assert current() == ids[0]
        page.keyboard.press("ArrowRight")
        # only the current slide is shown, and it fills the window at 16:9
        box = page.locator(f".reveal section#{ids[1]}").bounding_box()
        assert box and abs(box["width"] / box["height"] - 16 / 9) < 0.02
        page.keyboard.press("Escape")
        page.wait_for_selector(".deck-present-overlay", state="detached")
        assert current() is None
        assert page.evaluate("location.hash") == f"#{ids[1]}"
        assert len(slide_ids(page)) == len(ids), "every slide is back in the article"
        assert page.locator(f"section#{ids[-1]}").is_visible()
        # a fragment opens presenting at that slide
        page.goto(server + deck + f"?present#{ids[2]}")
        page.wait_for_selector(".deck-present-overlay .reveal.ready")
        assert current() == ids[2]
    assert errors == []


def test_topic_slide_lists_every_slide_and_the_pdf_has_one_page_per_slide_holding_its_figures(
    tab, server, site_dir, decks
):
    """On one load of each deck: its topic slide links every slide after the opening, and the deck's PDF (printed
    by the build) has one page per slide, holding the slide's figures."""
    from pypdf import PdfReader

    written = [site_dir / (deck.rstrip("/") + ".pdf") for deck in decks]  # printed by the build
    page = tab()
    for deck, pdf in zip(decks, written, strict=True):
        page.goto(server + deck)
        ids = slide_ids(page)
        assert ids[1] == "topics"
        links = page.eval_on_selector_all("section#topics a", "els => els.map(e => e.getAttribute('href'))")
        assert links == [f"#{i}" for i in ids if i != "topics"][1:], (
            "the topic list links every slide after the opening"
        )
        figs = page.eval_on_selector_all(
            "section.slide",
            "els => els.map(s => Array.from(s.querySelectorAll('a.fig'))"
            ".filter(a => !a.closest('.slide-article, .slide-notes')).map(a => a.textContent))",
        )
        reader = PdfReader(str(pdf))
        assert len(reader.pages) == len(figs), f"{pdf.name}: {len(reader.pages)} pages for {len(figs)} slides"
        for n, (p, want) in enumerate(zip(reader.pages, figs, strict=True), start=1):
            # NFKC undoes the typesetter's ligatures ("ff" in 69ffd2b is one glyph in the PDF's text)
            text = re.sub(r"\s+", "", unicodedata.normalize("NFKC", p.extract_text()))
            missing = [f for f in want if re.sub(r"\s+", "", f) not in text]
            assert not missing, f"{pdf.name} page {n} lacks {missing[:3]}"


def test_glossary_back_links_land_on_a_slide_or_section(tab, server, glossaries):
    page = tab()
    targets: dict[str, set[tuple[str, str]]] = {}
    for g in glossaries:
        page.goto(server + g)
        entries = page.eval_on_selector_all(
            ".term-entry",
            "els => els.map(e => [e.id, Array.from(e.querySelectorAll('.explained-in a')).map(a => a.href)])",
        )
        assert entries
        for term_id, hrefs in entries:
            assert hrefs, f"{term_id} is explained nowhere"
            for href in hrefs:
                url, _, frag = href.partition("#")
                targets.setdefault(url, set()).add((frag, term_id))
    for url, frags in sorted(targets.items()):
        page.goto(url)
        for frag, term_id in sorted(frags):
            kind = page.evaluate(
                "(id) => { const e = document.getElementById(id); return e ? (e.matches('section.slide') ? 'slide' : e.tagName) : null; }",
                frag,
            )
            assert kind in ("slide", "H2", "H3"), f"{term_id}: {url}#{frag} lands on {kind}"
    assert targets


# A term focused as Playwright's scroll_into_view_if_needed() and focus() would (scrolled to the middle when it is
# not wholly in view, then element.focus()), and its definition's popover read, in one call
TERM_FOCUS = """t => {
  const r = t.getClientRects()[0];
  if (!r || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    t.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
  t.focus();
  const tip = document.getElementById('term-tip');
  const shown = !!tip && !tip.hidden && tip.getClientRects().length > 0 && getComputedStyle(tip).visibility !== 'hidden';
  const b = shown ? tip.getBoundingClientRect() : null;
  return {shown, box: b && {x: b.x, width: b.width}, text: shown ? tip.innerText : null, short: t.dataset.short};
}"""
TIP_SHOWN = (
    "() => { const t = document.getElementById('term-tip'); return !!t && !t.hidden && t.getClientRects().length > 0; }"
)


@pytest.mark.parametrize("width", [390, 320])
def test_term_definitions_open_inside_the_viewport(tab, server, decks, width):
    page = tab(viewport={"width": width, "height": 800}, has_touch=True)
    opened = 0
    for deck in decks:
        page.goto(server + deck)
        terms = page.locator("a.term")
        count = terms.count()
        for i in range(min(count, 12)):
            got = terms.nth(i).evaluate(TERM_FOCUS)
            assert got["shown"], f"{deck}: term {i}: focus shows its definition"
            box = got["box"]
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
            assert got["text"] == got["short"]
            page.keyboard.press("Escape")
            assert not page.evaluate(TIP_SHOWN), f"{deck}: Escape closes the definition"
            opened += 1
        if count:
            before = page.url
            terms.first.tap()
            assert page.evaluate(TIP_SHOWN) and page.url == before, "a first tap shows the definition"
    assert opened > 0
