"""The reader's experience on every built page (issue 11): phones, number cards, keyboard and screen readers,
dark mode and print. Every test walks all the pages the build wrote, so a page added later is held to the same
rules without editing this file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

WIDTHS = (390, 320)
# A page is read once it has loaded (its deferred scripts have run), every chart has drawn, the figure index has laid
# out its table from figures.json, and its fonts are in: what waiting for the network to go idle (half a second of
# silence after every load) stood for, without the wait.
READY = (
    "() => Array.from(document.querySelectorAll('figure.chart[data-chart]')).every(f => f.dataset.ready === 'true')"
    " && Array.from(document.querySelectorAll('article.figures')).every(a => a.dataset.ready)"
    " && document.fonts.status === 'loaded'"
)
CARD = "#fig-card"


@pytest.fixture(scope="module")
def every_page(site_dir: Path, pages: list[str]) -> list[str]:
    """Every HTML page: the folders' index.html pages, and pages written as files (such as 404.html)."""
    files = sorted(p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*.html") if p.name != "index.html")
    return pages + [f for f in files if not f.startswith("assets/")]


def settle(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until the page is read: every chart drawn (explorers set data-ready once Plotly has drawn), the figure
    index's table laid out, the fonts loaded."""
    page.wait_for_function(READY, timeout=30_000)


def is_deck(path: str) -> bool:
    return re.fullmatch(r"[a-z]+/decks/[^/]+/", path) is not None


# ------------------------------------------------------------------------------------------------ phones


def test_tables_scroll_in_a_labelled_region_and_charts_name_their_series_and_targets_fit_a_phone(
    tab, server, every_page
):
    """At 390 px, on one load of each page (the checks read it in turn, each as it did on a load of its own):

    - tables scroll inside a focusable labelled region, and a table wider than the screen scrolls from the
      keyboard (read as soon as the page has loaded);
    - once the page is read, no chart's legend covers its plot or axis title: Plotly's legend gives way to the
      chart's own series toggles, which every chart with named series has (the explorer's, else the ones
      charts/a11y.js makes);
    - every control is a target of at least 24 px and every check box keeps its label on its line
      (tests/browser/test_phone_tables.py checks the same at 320 px);
    - on a deck, last (its charts' data tables opened, the tables that start hidden shown), no word of a table, on
      the slide cards or in their Article: blocks, is split over two lines, and the page is no wider than the screen
      (tests/browser/test_phone_tables.py checks every page's tables at 320 px)."""
    from tests.browser.test_phone_tables import APART_JS, SPLIT_JS, TARGETS_JS, WIDE_JS

    page = tab(viewport={"width": 390, "height": 800})
    scrolled, seen = 0, 0
    small, apart = [], []
    decks, deck_tables, split = 0, 0, []
    for path in every_page:
        page.goto(server + path)
        wraps = page.eval_on_selector_all(
            ".table-wrap",
            "els => els.map(e => [e.getAttribute('tabindex'), e.getAttribute('role'), e.getAttribute('aria-label')])",
        )
        for tabindex, role, label in wraps:
            assert (tabindex, role) == ("0", "region") and label, f"{path}: {tabindex} {role} {label}"
        # a table wider than the screen scrolls from the keyboard
        wide = page.locator(".table-wrap").filter(has=page.locator("table"))
        for i in range(wide.count()):
            w = wide.nth(i)
            if w.evaluate("e => e.scrollWidth > e.clientWidth + 8 && e.offsetParent !== null"):
                w.focus()
                page.keyboard.press("ArrowRight")
                page.wait_for_function("e => e.scrollLeft > 0", arg=w.element_handle(), timeout=2_000)
                scrolled += 1
                break
        settle(page)
        for chart in page.locator("figure.chart[data-chart] .js-plotly-plot").all():
            seen += 1
            legend = chart.locator("g.legend")
            title = chart.locator(".g-xtitle")
            if legend.count() and legend.first.is_visible() and title.count():
                a, b = legend.first.bounding_box(), title.first.bounding_box()
                assert a and b and (a["y"] >= b["y"] + b["height"] or a["y"] + a["height"] <= b["y"]), path
            names = chart.evaluate(
                "gd => gd.data.filter(t => t.name && t.showlegend !== false && gd._fullLayout.showlegend !== false)"
                ".length"
            )
            if names > 1:
                assert chart.evaluate("gd => !!gd.closest('figure').querySelector('.explorer-toggles')"), path
        small += [f"/{path} {t[0]} {t[1]}: {t[2]:.0f}×{t[3]:.0f}" for t in page.evaluate(TARGETS_JS)]
        apart += [f"/{path} {a}" for a in page.evaluate(APART_JS)]
        if is_deck(path):
            decks += 1
            deck_tables += page.evaluate("document.querySelectorAll('section.slide table').length")
            split += [f"/{path} {s}" for s in page.evaluate(SPLIT_JS)]
            assert page.evaluate(WIDE_JS) <= 0, f"/{path} is wider than the screen at 390 px"
    assert scrolled > 0, "no table was wide enough at 390 px to try"
    assert seen > 0
    assert not small, "controls under 24 px:\n" + "\n".join(small[:40])
    assert not apart, "a box on one line, its label on the next:\n" + "\n".join(apart[:40])
    assert decks
    assert deck_tables > 20
    assert not split, f"{len(split)} words split over two lines in the decks' tables:\n" + "\n".join(split[:40])


# ------------------------------------------------------------------------------------------------ number cards


# Marks up to n of the page's visible figures (visible as Playwright's :visible has it: a box of some size, not
# visibility: hidden), spread over the page: the first, the last and some between; returns how many it marked
MARK_SAMPLE = """n => {
  const figs = Array.from(document.querySelectorAll('main a.fig')).filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  });
  const picks = new Set(Array.from({length: Math.min(n, figs.length)},
    (_, i) => Math.round(i * (figs.length - 1) / Math.max(1, n - 1))));
  [...picks].forEach((k, j) => figs[k].setAttribute('data-probe', j));
  return picks.size;
}"""


PROBE = 'main a.fig[data-probe="{}"]'  # the j-th figure MARK_SAMPLE marked


def sample(page, n: int = 4) -> list:  # type: ignore[no-untyped-def]
    """Up to ``n`` of the page's visible figures as locators of their own: each is marked once in the page, so an
    action on it does not look through every figure of the page again (the figure index has 2,323)."""
    return [page.locator(PROBE.format(j)) for j in range(page.evaluate(MARK_SAMPLE, n))]


# What the open card shows against the figure that opened it, read in one call: its box, its value and source link
# beside the figure's text, link and source attributes
CARD_STATE = """fig => {
  const card = document.getElementById('fig-card');
  const shown = !!card && !card.hidden && card.getClientRects().length > 0;
  const r = shown ? card.getBoundingClientRect() : null;
  const value = shown ? card.querySelector('.fig-card-value') : null;
  const src = shown ? card.querySelector('a') : null;
  return {
    shown, box: r && {x: r.x, y: r.y, width: r.width, height: r.height},
    value: value && value.innerText, href: src && src.getAttribute('href'), source: src && src.textContent,
    text: fig.textContent, figHref: fig.getAttribute('href'), file: fig.getAttribute('data-file'),
    section: fig.getAttribute('data-section'), row: fig.getAttribute('data-row'), col: fig.getAttribute('data-col'),
    describedby: fig.getAttribute('aria-describedby'),
  };
}"""


def card_state(fig) -> dict:  # type: ignore[no-untyped-def]
    return fig.evaluate(CARD_STATE)


# Where a pointer or a finger lands on a figure, found as Playwright's hover() and tap() find it but in one call
# instead of their dozen: the middle of its first line box, scrolled into view when it is not wholly inside it
# (centred first, then at the bottom or the top when something, such as the card of the figure before it, covers
# it there), two frames after a scroll (what follows the scroll has moved), the figure being the element at that
# point (their hit check). The pointer and the finger are then moved by real input events (page.mouse,
# page.touchscreen), as hover() and tap() move them.
AIM = """async el => {
  const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const inside = r => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  let got = null;
  for (const block of [null, 'center', 'end', 'start']) {
    if (block) {
      const r = el.getClientRects()[0];
      if (block === 'center' && r && inside(r)) continue;
      el.scrollIntoView({block, inline: 'center', behavior: 'instant'});
      await frames();  // what follows the scroll (a card kept beside its figure) has moved
    }
    const r = el.getClientRects()[0];
    if (!r || !inside(r)) continue;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    got = {x, y, hit: !!hit && (hit === el || el.contains(hit)), on: hit ? hit.outerHTML.slice(0, 120) : null};
    if (got.hit) break;
  }
  return got;
}"""

# Focus moved to a figure as Playwright's focus() moves it (element.focus()), and the card's state read after it
FOCUS_STATE = f"fig => {{ fig.focus(); return ({CARD_STATE})(fig); }}"
SHOWN_FOR = (
    "sel => { const c = document.getElementById('fig-card'), f = document.querySelector(sel);"
    " return c && !c.hidden && f.getAttribute('aria-describedby') === 'fig-card'; }"
)


def pointer_leaves(page) -> None:  # type: ignore[no-untyped-def]
    """The pointer moves off every figure and the open card closes (after its delay)."""
    page.mouse.move(0, 0)
    page.wait_for_selector(f"{CARD}[hidden]", state="attached", timeout=2_000)


def aim(fig, where: str, page=None) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """The point a pointer or a finger acting on ``fig`` lands on, the figure itself being there (not covered).
    Given the ``page`` whose pointer is to move there: when the card of the figure the pointer is on covers ``fig``
    wherever it can be scrolled to, the pointer first leaves and the card closes, as a reader's would."""
    got = fig.evaluate(AIM)
    if page is not None and got and not got["hit"]:
        pointer_leaves(page)
        got = fig.evaluate(AIM)
    assert got and got["hit"], f"{where}: the figure is not under the point aimed at: {got}"
    return got["x"], got["y"]


def card_inside(got: dict, width: int, height: int, where: str) -> None:
    box = got["box"]
    assert got["shown"] and box, f"{where}: the card is not shown"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (where, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (where, box)


def check_card(got: dict, where: str) -> None:
    """The open card gives the figure's value and links to its source cell, named as Source.describe writes it
    (computed here from the link's attributes); the figure points screen readers at the card."""
    assert got["value"] == got["text"], where
    assert got["href"] == got["figHref"], where
    row = " / ".join(json.loads(got["row"]))
    assert got["source"] == f"{got['file']} § {got['section']} › {row} › {got['col']}", where
    assert got["describedby"] == "fig-card", where


@pytest.mark.parametrize("part", range(2))  # every other page, so pytest-xdist gives the halves to two workers
def test_number_cards_open_on_hover_and_focus_inside_the_viewport(tab, server, every_page, part):
    """Each sampled figure opens its card on hover (moving from one figure to the next moves the card), and on
    keyboard focus, inside the viewport; Escape closes it, and the pointer leaving closes it after its delay."""
    width, height = 1024, 700
    page = tab(viewport={"width": width, "height": height})
    opened = 0
    for path in every_page[part::2]:
        page.goto(server + path)
        settle(page)  # the figure index's rows are in (the figures sampled must stay in the page)
        figs = sample(page)
        for j, fig in enumerate(figs):
            page.mouse.move(*aim(fig, f"{path} hover", page))
            page.wait_for_function(SHOWN_FOR, arg=PROBE.format(j), timeout=2_000)
            got = card_state(fig)
            card_inside(got, width, height, f"{path} hover")
            check_card(got, f"{path} hover")
            opened += 1
        if figs:  # the pointer leaves the last one: the card closes
            pointer_leaves(page)
        for fig in figs:
            got = fig.evaluate(FOCUS_STATE)
            card_inside(got, width, height, f"{path} focus")
            check_card(got, f"{path} focus")
            page.keyboard.press("Escape")
            assert not card_state(fig)["shown"], f"{path}: Escape closes the card"
    assert opened > 10


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_is_wider_than_a_phone_and_number_cards_open_on_tap(tab, server, every_page, width):
    """At a phone's size, on one load of each page (the checks read it in turn, each as it did on a load of its own):

    - once the page is read, it is no wider than the phone; no page logs an error or a warning (nor a page a second
      tap leads to);
    - each sampled figure opens its card inside the viewport on a first tap, without following its link; Escape closes
      it; on the first pages, a second tap follows the link."""
    height = 700
    page = tab(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True)
    errors: list[str] = []
    tab.on(page, "console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    tab.on(page, "pageerror", lambda e: errors.append(f"pageerror: {e}"))
    wide: dict[str, int] = {}
    tapped = 0
    followed = 0
    for path in every_page:
        page.goto(server + path)
        settle(page)
        got = page.evaluate("document.documentElement.scrollWidth")
        if got > width:
            wide[path] = got
        figs = sample(page, 3)
        for fig in figs:
            before = page.url
            page.touchscreen.tap(*aim(fig, f"{path} tap"))
            got = card_state(fig)
            assert got["shown"], f"{path}: a first tap shows the card"
            assert page.url == before
            card_inside(got, width, height, f"{path} tap")
            check_card(got, f"{path} tap")
            page.keyboard.press("Escape")
            assert not card_state(fig)["shown"], f"{path}: Escape closes the card"
            tapped += 1
        if figs and followed < 3:
            fig = figs[0]
            fig.scroll_into_view_if_needed()
            href = fig.evaluate("a => a.href")
            fig.tap()
            assert card_state(fig)["shown"]
            with page.expect_navigation():
                fig.tap()
            assert page.url == href, "a second tap follows the link"
            settle(page)  # the page the link leads to is read whole (its console is listened to) before the next
            followed += 1
    assert wide == {}, f"pages wider than {width} px"
    assert errors == []
    assert tapped > 10 and followed > 0


def test_enter_follows_a_figure_and_the_card_gives_pages_and_published_values(tab, server):
    page = tab(viewport={"width": 1024, "height": 700})
    page.goto(server + "fopttrn/analysis/results/")
    fig = page.locator('a.fig[data-fig="ana.precision.bf16.enob_range"]').first
    fig.scroll_into_view_if_needed()
    fig.focus()
    card = page.locator(CARD)
    page.wait_for_function("() => !document.querySelector('#fig-card .fig-card-more').textContent.includes('…')")
    text = card.inner_text()
    assert "Also shown on" in text, text
    assert "10.3–10.7" in text and "10.3–10.8" in text, "both the published figure and ours"
    assert card.locator(".fig-card-more li a").count() >= 1
    href = fig.evaluate("a => a.href")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == href
    # a card reads its key's file of figures/cards/ (once per file), when it first opens; never figures.json
    requests: list[str] = []
    tab.on(page, "request", lambda r: requests.append(r.url))
    page.goto(server + "cit/", wait_until="networkidle")
    assert not any("/figures/" in u or u.endswith("figures.json") for u in requests)
    figs = page.locator("main a.fig:visible")
    keys = []
    for i in range(3):
        figs.nth(i).focus()
        keys.append(figs.nth(i).get_attribute("data-fig"))
        page.wait_for_function("() => !document.querySelector('#fig-card .fig-card-more').textContent.includes('…')")
    from site_builder.render.figure_cards import file_of

    wanted = sorted({server + file_of(k) for k in keys})
    assert sorted(u for u in requests if "/figures/" in u or u.endswith("figures.json")) == wanted


def test_each_figure_is_in_the_card_file_the_page_script_fetches_for_it(tab, server, site_dir: Path):
    """site.js's cardFile and figure_cards.shard_of name the same file for every key, and that file holds the key
    with its first pages and their count (the figure list, figures.json, has them all)."""
    from site_builder.render.figure_cards import PAGES, file_of

    figures = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]
    page = tab()
    page.goto(server + "cit/")
    keys = [f["key"] for f in figures] + ["ключ.ünïcode", "x"]
    assert page.evaluate("keys => keys.map(k => window.SiteSource.cardFile(k))", keys) == [file_of(k) for k in keys]
    cards: dict[str, dict] = {}
    for f in figures:
        name = file_of(f["key"])
        if name not in cards:
            cards[name] = json.loads((site_dir / name).read_text(encoding="utf-8"))["figures"]
        card = cards[name][f["key"]]
        assert card["pages"] == f["pages"][:PAGES] and card["count"] == len(f["pages"]), f["key"]
        assert card.get("published") == f.get("published") and card.get("versions") == f.get("versions")
    assert sum(len(c) for c in cards.values()) == len(figures)


def test_a_card_and_the_figure_index_note_a_figure_whose_data_versions_differ(tab, server):
    """exp.setting.runs counts 25 runs in the experiment's 05a68ae version and 32 in 4d6b4b2: both say so."""
    page = tab(viewport={"width": 1024, "height": 700})
    page.goto(server + "cit/")
    fig = page.locator('a.fig[data-fig="exp.setting.runs"]').first
    fig.scroll_into_view_if_needed()
    fig.focus()
    page.wait_for_function("() => !document.querySelector('#fig-card .fig-card-more').textContent.includes('…')")
    text = page.locator(CARD).inner_text()
    assert "Differs between data versions: 05a68ae 25 → 4d6b4b2 32" in text, text
    page.goto(server + "figures/")
    page.wait_for_selector('article.figures[data-ready="true"]')
    page.fill("#fig-filter-input", "exp.setting.runs")  # its file's table opens with rows before it
    row = page.locator('tr[data-key="exp.setting.runs"]')
    row.wait_for()
    assert "data versions differ: 05a68ae: 25 → 4d6b4b2: 32" in row.inner_text()
    page.fill("#fig-filter-input", "exp.final.B")
    other = page.locator('tr[data-key="exp.final.B"]')
    other.wait_for()
    assert "data versions differ" not in other.inner_text()


def test_every_keyed_results_cell_is_a_figure(site_dir: Path):
    """The footer promises a card on every number: each registered figure is a link in its results table."""
    import json

    index = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]
    by_page: dict[str, set[str]] = {}
    for f in index:
        by_page.setdefault(f["source"]["page"], set()).add(f["key"])
    for page, keys in by_page.items():
        html = (site_dir / page / "index.html").read_text(encoding="utf-8")
        shown = set(re.findall(r'<td><a class="fig" [^>]*data-fig="([^"]+)"', html))
        assert keys <= shown, f"{page}: {sorted(keys - shown)[:5]}"


# ------------------------------------------------------------------------------------------------ keyboard, screen readers


def test_skip_link_comes_first_charts_have_a_caption_and_a_data_table_and_series_checkboxes_print_as_a_key(
    tab, server, every_page
):
    """On one load of each page (the checks read it in turn, each as it did on a load of its own):

    - the skip link is the first thing the keyboard reaches (read as soon as the page has loaded);
    - once the page is read, each chart has a caption and a data table that its toggle opens and closes, and nothing
      of Plotly is in the tab order;
    - then each chart's series checkboxes print as a key of the series drawn (on paper there is nothing to tick)."""
    page = tab()
    checked = 0
    charts = 0
    for path in every_page:
        page.goto(server + path)
        page.keyboard.press("Tab")
        first = page.evaluate("() => [document.activeElement.className, document.activeElement.getAttribute('href')]")
        assert first == ["skip-link", "#main"], path
        assert page.locator(".skip-link").is_visible()
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.activeElement.id") == "main", path
        settle(page)
        for fig in page.locator("figure.chart[data-chart]").all():
            charts += 1
            name = fig.get_attribute("data-chart")
            assert fig.locator(":scope > figcaption").count() == 1, f"{path}: {name} has no caption"
            plot = fig.locator(".js-plotly-plot").first
            assert plot.get_attribute("role") == "img" and (plot.get_attribute("aria-label") or "").startswith("Chart")
            focusable = plot.evaluate(
                "p => Array.from(p.querySelectorAll('a[href], button, input, select, [tabindex]'))"
                ".filter(e => e.tabIndex >= 0 && e.getClientRects().length).length"
            )
            assert focusable == 0, f"{path}: {name}: Plotly elements in the tab order"
            assert plot.locator(".modebar").count() == 0 or not plot.locator(".modebar").first.is_visible()
            toggle = fig.locator(":scope > .chart-data-toggle")
            assert toggle.get_attribute("aria-expanded") == "false"
            toggle.focus()
            page.keyboard.press("Enter")
            assert toggle.get_attribute("aria-expanded") == "true"
            data = page.locator("#" + toggle.get_attribute("aria-controls"))
            assert data.is_visible() and data.locator("table tbody tr").count() > 0, f"{path}: {name}"
            toggle.click()
            assert not data.is_visible()
        sets = page.locator("figure.chart .explorer-toggles")
        if not sets.count():
            continue
        series = sets.first.locator("input[type=checkbox][data-series]")
        box = (series if series.count() else sets.first.locator("input[type=checkbox]")).first
        label = sets.first.locator(f"label[for='{box.get_attribute('id')}']")
        if box.is_checked():
            box.focus()
            page.keyboard.press("Space")  # one series off: it is not drawn, so it has no entry in the key
        page.emulate_media(media="print")
        assert sets.first.is_visible(), f"{path}: the chart's key does not print"
        assert not box.is_visible(), f"{path}: a checkbox prints"
        assert not label.is_visible(), f"{path}: a series switched off is in the printed key"
        shown = sets.first.locator("input[type=checkbox]:checked")
        if shown.count():
            first = sets.first.locator(f"label[for='{shown.first.get_attribute('id')}']")
            assert first.is_visible(), f"{path}: a series drawn is missing from the printed key"
        page.emulate_media(media="screen")
        checked += 1
    assert charts > 0
    assert checked >= 6  # the explorers with series checkboxes


# axe runs once per page and scheme; the pages are dealt into parts (every AXE_PARTS-th page), one test each, so
# pytest-xdist spreads them over its workers
AXE_PARTS = 4
# Every rule runs on every element; only the violations are reported node by node (axe-core's resultTypes: a rule
# that passes names one node, not each). On the figure index (tens of thousands of elements) writing out every
# passing node was most of axe's time: 66 CPU-seconds for the page, 25 with this option, the same violations.
AXE_OPTIONS = {"resultTypes": ["violations"]}


@pytest.mark.parametrize("part", range(AXE_PARTS))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page_and_dark_pages_print_in_ink(tab, server, every_page, scheme, part):
    """axe-core's rules on every page, once per page and scheme (the decks and glossaries among them). In the dark
    scheme the same load of the page is then printed (``check_print``): axe reads the page on screen first, and
    printing comes after it, as it came after the load of a test of its own.

    axe-core is put into the page by ``page.evaluate``, which the page's Content-Security-Policy does not govern:
    the page is read under its policy (no bypass), with the same violations on every page as with it bypassed."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    page = tab(color_scheme=scheme)
    bad = []
    for path in every_page[part::AXE_PARTS]:
        page.goto(server + path)
        settle(page)
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
        for v in axe.run(page, options=AXE_OPTIONS).response["violations"]:
            if v["impact"] in ("serious", "critical"):
                bad.append(f"/{path} ({scheme}): {v['id']} ({v['impact']}): {v['nodes'][0]['target']}")
        if scheme == "dark":
            check_print(page, path)
    assert bad == []


# ------------------------------------------------------------------------------------------------ dark mode


def test_dark_mode_follows_the_system_and_the_toggle_persists(tab, server, every_page):
    """The toggle's choice, kept in the tab's storage, against the system's light scheme; then, in a tab whose storage
    holds no choice, the system's dark scheme. (A kept tab's storage is cleared when its test gives it back.)"""
    page = tab(color_scheme="light")
    page.goto(server + "cit/")
    settle(page)
    toggle = page.locator("[data-theme-toggle]")
    assert toggle.is_visible() and toggle.evaluate("e => e.tagName") == "BUTTON"
    assert toggle.get_attribute("aria-pressed") == "false"
    light_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    toggle.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert toggle.get_attribute("aria-pressed") == "true"
    dark_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert dark_bg != light_bg
    # charts follow: Plotly's text takes the page's ink
    page.wait_for_function(
        "() => { const gd = document.querySelector('figure.chart .js-plotly-plot');"
        " return gd && gd._fullLayout.font.color.replace(/\\s/g, '') !== '' &&"
        " getComputedStyle(gd.querySelector('.xtick text')).fill === getComputedStyle(document.body).color; }",
        timeout=5_000,
    )
    # the choice persists across a reload and on every other page: read once the page is parsed and its deferred
    # scripts have run (theme.js sets the theme in the head, before the first paint; the style sheets are in by then)
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    for path in every_page:
        page.goto(server + path, wait_until="domcontentloaded")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark", path
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == dark_bg, path
    page.locator("[data-theme-toggle]").click()
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    # with no choice made, the system's setting decides
    page = tab(color_scheme="dark")
    page.goto(server + "cit/")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.locator("[data-theme-toggle]").get_attribute("aria-pressed") == "true"


# ------------------------------------------------------------------------------------------------ print


def check_print(page, path: str) -> None:  # type: ignore[no-untyped-def]
    """Print drops the chrome and keeps every number: ``page`` holds ``path`` loaded and read in the dark scheme,
    and prints on white. The axe test's dark half calls it on its load of each page, after axe has read it."""
    from io import BytesIO

    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from pypdf import PdfReader

    page.emulate_media(media="print")
    for sel in (".site-header", ".site-footer", ".skip-link", "[data-theme-toggle]"):
        assert not page.locator(sel).first.is_visible(), f"{path}: {sel} prints"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") in ("rgb(255, 255, 255)",), path
    figs = page.locator("main a.fig:not(.slide-article *):not(.slide-notes *)")  # article-only detail does not print
    if figs.count():
        assert figs.first.is_visible()
    if not is_deck(path):  # decks print one slide per page (tests/browser/test_decks.py)
        here = page.url.split("#")[0]
        elsewhere = page.evaluate(
            "here => Array.from(document.querySelectorAll('main a.fig')).filter(a => a.href.split('#')[0] !== here).length",
            here,
        )
        if elsewhere and not path.startswith("figures/"):
            # site.js makes the list when the page is idle (at most 2 s after load) or on beforeprint; under a
            # busy parallel run that can come after the checks above, so wait for it rather than look once
            try:
                page.locator(".print-sources").wait_for(state="visible", timeout=10_000)
            except PlaywrightTimeout:
                pytest.fail(f"{path}: no list of sources")
            assert page.locator("main a.fig[data-note]").count() == elsewhere
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # what a browser does on Ctrl+P
        pdf = PdfReader(BytesIO(page.pdf(format="A4", print_background=True)))
        page.evaluate("window.dispatchEvent(new Event('afterprint'))")
        last = pdf.pages[-1].extract_text().strip()
        assert last, f"{path}: the last printed page is blank"
    page.emulate_media(media="screen")
