"""What a slide may hold, measured on every slide of every deck: the slide keeps the point, the article's
Article: block the detail. Counted on the slide as presented (not its Article: block, speaker notes or an
explorer's own controls and tables): words of body prose (a deck's list of topics, links to its slides,
is not prose), rows of its largest table, and figures shown."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

WORDS = 60  # words of prose (paragraphs, list items) on one slide
ROWS = 8  # body rows of one table
FIGURES = 25  # registered figures shown on one slide

COUNT_JS = """() => Array.from(document.querySelectorAll("section.slide")).map(s => {
  const body = s.querySelector(".slide-body");
  const shown = el => !el.closest(".slide-article, .slide-notes, figure.chart, ol.topics");
  let words = 0;
  body.querySelectorAll("p, li, dd, dt, blockquote").forEach(el => {
    if (!shown(el) || el.closest("table") || el.querySelector("p, li")) return;
    words += el.textContent.trim().split(/\\s+/).filter(Boolean).length;
  });
  let rows = 0;
  body.querySelectorAll("table").forEach(t => { if (shown(t)) rows = Math.max(rows, t.querySelectorAll("tbody tr").length); });
  const figures = Array.from(body.querySelectorAll(".fig")).filter(shown).length;
  return [s.id, words, rows, figures];
})"""


def test_every_slide_keeps_within_its_budget(tab, server, pages):
    decks = [p for p in pages if re.fullmatch(r"[a-z]+/decks/[^/]+/", p)]
    assert decks
    page = tab(viewport={"width": 1280, "height": 720})
    over, seen = [], 0
    for deck in decks:
        page.goto(server + deck)
        for sid, words, rows, figures in page.evaluate(COUNT_JS):
            seen += 1
            if words > WORDS or rows > ROWS or figures > FIGURES:
                over.append(f"/{deck}#{sid}: {words} words, {rows} table rows, {figures} figures")
    assert seen > 50
    assert over == [], (
        f"{len(over)} of {seen} slides over {WORDS} words, {ROWS} rows or {FIGURES} figures:\\n" + "\\n".join(over)
    )
