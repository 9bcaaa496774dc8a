"""Tables on a phone, in Chromium at 320 px wide: no word of any table cell (a number, a unit, a heading) is split
over two lines, on any page the build wrote. A table too wide for the screen scrolls sideways in its region, or
stacks, instead of breaking its numbers ("2,66|7", "0.|64|3").

Every table is checked with its data shown: each chart's "data" toggle is opened first, and the explorers' tables
that start hidden are shown. For each text node of a cell, every run of non-space characters is measured with a
Range: its client rectangles must all lie on one line (each overlaps the first vertically).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

WIDTH = 320

SPLIT_JS = """async () => {
  for (const b of document.querySelectorAll('.chart-data-toggle[aria-expanded="false"]')) b.click();
  for (const t of document.querySelectorAll('table[hidden]')) t.hidden = false;
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = [];
  const cells = document.querySelectorAll('table th, table td, table caption');
  for (const cell of cells) {
    if (!cell.getClientRects().length) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      // A word, or each part of a compound word after its hyphens ("all-|gather" may break as prose does); the
      // figure index's keys are text nodes of one part each (a dotted path breaks after its dots, at a <wbr>).
      const re = /[^\\s\\-\\u2010\\u2013\\u2014/]*[\\-\\u2010\\u2013\\u2014/]+|[^\\s\\-\\u2010\\u2013\\u2014/]+/g;
      let m;
      while ((m = re.exec(n.data))) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const rects = [...r.getClientRects()].filter((q) => q.width > 0 && q.height > 0);
        if (rects.length < 2) continue;
        const first = rects[0];
        if (rects.some((q) => q.top >= first.bottom - 1 || q.bottom <= first.top + 1)) {
          const table = cell.closest('table');
          const where = (table.closest('[id]') || table).id || table.className || 'table';
          out.push(where + ': ' + JSON.stringify(m[0]) + ' in ' + JSON.stringify(cell.textContent.trim().slice(0, 60)));
        }
      }
    }
  }
  return out;
}"""

WIDE_JS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


# ------------------------------------------------------------------------------------------------ touch targets

TARGETS_JS = """() => [...document.querySelectorAll(
    'input[type=checkbox], input[type=radio], input[type=range], select, figure.chart button')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => { const r = e.getBoundingClientRect(); return [e.id || e.name || e.className || e.tagName, e.type || '',
    r.width, r.height]; })
  .filter((t) => t[2] < 24 || t[3] < 24)"""

# Each check box and radio button of a chart (series toggles, explorers' options) keeps its label beside it: the
# label's first line is the box's line.
APART_JS = """() => [...document.querySelectorAll('figure.chart input[type=checkbox], figure.chart input[type=radio]')]
  .filter((b) => b.getClientRects().length && b.id)
  .map((b) => [b, document.querySelector('label[for="' + b.id + '"]')])
  .filter(([b, l]) => l && l.getClientRects().length)
  .filter(([b, l]) => { const r = b.getBoundingClientRect(), q = l.getClientRects()[0];
    return q.top >= r.bottom || q.bottom <= r.top; })
  .map(([b, l]) => b.id + ' / ' + l.textContent.trim().slice(0, 40))"""


def test_no_word_in_a_table_breaks_and_controls_are_24_px_targets_with_their_labels_at_320_px(tab, server, pages):
    """At 320 px, on one load of each page, once its charts (and the figure index) are drawn: every control is a
    target of at least 24 px and every check box keeps its label on its line; then, every chart's data table opened
    and the tables that start hidden shown, no word of any table is split over two lines and the page is no wider
    than the screen. At 390 px the same is checked on the load of each page that tests/browser/test_reader.py's
    phone walk reads (test_tables_scroll_in_a_labelled_region_and_charts_name_their_series_and_targets_fit_a_phone),
    the decks' tables among them."""
    page = tab(viewport={"width": WIDTH, "height": 640})
    small, apart = [], []
    split, seen = [], 0
    for path in pages:
        page.goto(server + path)
        page.wait_for_load_state("load")
        for chart in page.evaluate("[...document.querySelectorAll('figure.chart[data-chart]')].map((f) => f.id)"):
            page.wait_for_selector(f"#{chart}[data-ready='true']", state="attached", timeout=30_000)
        if page.locator("article.figures[data-figures]").count():  # the figure index, drawn from figures.json
            page.wait_for_selector("article.figures[data-ready='true']", state="attached", timeout=30_000)
        small += [f"/{path} {t[0]} {t[1]}: {t[2]:.0f}×{t[3]:.0f}" for t in page.evaluate(TARGETS_JS)]
        apart += [f"/{path} {a}" for a in page.evaluate(APART_JS)]
        seen += page.evaluate("document.querySelectorAll('table').length")
        split += [f"/{path} {s}" for s in page.evaluate(SPLIT_JS)]
        assert page.evaluate(WIDE_JS) <= 0, f"/{path} is wider than the screen at {WIDTH} px"
    assert seen > 0
    assert not split, f"{len(split)} words split over two lines:\n" + "\n".join(split[:40])
    assert not small, "controls under 24 px:\n" + "\n".join(small[:40])
    assert not apart, "a box on one line, its label on the next:\n" + "\n".join(apart[:40])
