"""Presenting a deck in Chromium: every slide whole and legible at 1280x720, and reveal.js's presenter tools."""

from __future__ import annotations

import re

import pytest

from tests.conftest import PROJECT

pytestmark = pytest.mark.browser

# Text outside the slide (in slide pixels) and text smaller than 16 px (the source line 14 px) on the slide
# shown; speaker notes, article-only detail and the plot's own SVG text are not slide text.
MEASURE = """() => {
  const s = document.querySelector(".reveal .slides > section.present");
  const box = s.getBoundingClientRect();
  const scale = box.width / 1280;
  let over = 0; const small = [];
  const walker = document.createTreeWalker(s, NodeFilter.SHOW_TEXT);
  let n;
  while ((n = walker.nextNode())) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    if (el.closest(".slide-notes, .slide-article, .slide-number, [hidden], .js-plotly-plot")) continue;
    const st = getComputedStyle(el);
    if (st.display === "none" || st.visibility === "hidden") continue;
    // text in a panel that scrolls inside the slide (an opened data table) is measured by its panel
    const panel = el.closest(".chart-data");
    const rects = panel && /auto|scroll/.test(getComputedStyle(panel).overflowY) ? [panel.getBoundingClientRect()]
      : (() => { const range = document.createRange(); range.selectNodeContents(n); return Array.from(range.getClientRects()); })();
    for (const r of rects) {
      if (r.width === 0) continue;
      const o = Math.max(r.bottom - box.bottom, r.right - box.right, box.left - r.left, box.top - r.top) / scale;
      if (o > 1) over = Math.max(over, Math.round(o));
    }
    const px = parseFloat(st.fontSize);
    if (px < (el.closest(".slide-source") ? 14 : 16) - 0.01) small.push(px + "px " + n.textContent.trim().slice(0, 24));
  }
  s.querySelectorAll("select, button, input:not([type=range]):not([type=checkbox]):not([type=radio])").forEach(c => {
    const px = parseFloat(getComputedStyle(c).fontSize); if (px < 16) small.push(px + "px " + c.tagName);
  });
  return { over: over, small: small.slice(0, 3) };
}"""

READY = "() => Array.from(document.querySelectorAll('.reveal section.present figure.chart')).every(f => f.dataset.ready === 'true')"


@pytest.fixture(scope="module")
def decks(pages: list[str]) -> list[str]:
    found = [p for p in pages if re.fullmatch(r"[a-z]+/decks/[^/]+/", p)]
    assert found
    return found


def open_slide(page, url: str) -> None:
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector(".deck-present-overlay .reveal.ready")
    page.wait_for_function(READY)


def current(page) -> str | None:
    return page.evaluate("() => window.SiteDeck.current()")


def contrast(page, sel: str, prop: str) -> float:  # type: ignore[no-untyped-def]
    """The contrast ratio of ``sel``'s colour ``prop`` against the presentation's background."""
    return page.evaluate(
        """([sel, prop]) => {
          const lum = c => { const v = c.match(/[\\d.]+/g).slice(0, 3).map(x => x / 255)
            .map(x => x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4));
            return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
          const a = lum(getComputedStyle(document.querySelector(sel))[prop]);
          const b = lum(getComputedStyle(document.querySelector('.deck-present-overlay')).backgroundColor);
          return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        }""",
        [sel, prop],
    )


# the decks as their content files name them, one test each (so pytest-xdist shares them between its workers)
DECK_URLS = sorted(f"{p.parent.parent.name}/decks/{p.stem}/" for p in (PROJECT / "content").glob("*/decks/*.md"))


def test_the_decks_opened_by_link_are_the_built_decks(decks):
    assert DECK_URLS == sorted(decks)


@pytest.mark.parametrize("deck", DECK_URLS)
def test_every_slide_opened_by_its_link_is_whole_and_legible(tab, server, deck):
    """Each slide loaded fresh from its own link. What is measured (text inside the slide, type sizes) does not
    depend on the colour scheme, so this runs in one; every slide is measured in both schemes by the stepping test
    below, which reaches it with the keyboard."""
    page = tab(viewport={"width": 1280, "height": 720}, color_scheme="light")
    bad, seen = [], 0
    page.goto(server + deck)
    ids = page.eval_on_selector_all("section.slide", "els => els.map(e => e.id)")
    for sid in ids:
        open_slide(page, server + deck + f"?present#{sid}")
        assert current(page) == sid
        r = page.evaluate(MEASURE)
        seen += 1
        if r["over"] or r["small"]:
            bad.append(f"/{deck}#{sid}: {r['over']} px outside, small text {r['small']}")
    assert seen == len(ids) > 0, f"{deck}: no slide"
    assert bad == [], f"{len(bad)} of {seen} slides:\n" + "\n".join(bad)


def check_data_table(page, deck: str, sid: str, bad: list[str]) -> None:  # type: ignore[no-untyped-def]
    """On the chart slide ``sid`` shown: the slide's content changes, the data table opens in a panel over the plot
    that scrolls, inside the slide (what is wrong goes to ``bad``); closed again, the deck has not moved."""
    toggle = page.locator(".reveal section.present .chart-data-toggle").first
    toggle.click()
    page.wait_for_selector(".reveal section.present .chart-data:not([hidden]) table")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    r = page.evaluate(MEASURE)
    panel = page.evaluate(
        """() => { const p = document.querySelector('.reveal section.present .chart-data:not([hidden])');
          const s = p.closest('section').getBoundingClientRect(), b = p.getBoundingClientRect();
          return { inside: b.top >= s.top && b.bottom <= s.bottom + 1 && b.left >= s.left && b.right <= s.right + 1,
                   scrolls: p.scrollHeight <= p.clientHeight + 1 || /auto|scroll/.test(getComputedStyle(p).overflowY) }; }"""
    )
    if r["over"] or r["small"] or not panel["inside"] or not panel["scrolls"]:
        bad.append(f"/{deck}#{sid}: {r}, panel {panel}")
    toggle.click()
    assert current(page) == sid


def check_keys_in_controls(page, deck: str, sid: str, kinds: set[str]) -> None:  # type: ignore[no-untyped-def]
    """On the chart slide ``sid`` shown: keys pressed in each kind of control on it act on the control (the deck stays
    on the slide; the kinds found go to ``kinds``); Escape from a control gives the keys back to the slide."""
    for kind, sel in (
        ("select", "select:not([disabled])"),
        ("button", "figure.chart button"),
        ("slider", "input[type=range]:not([disabled])"),
        ("checkbox", "input[type=checkbox]:not([disabled])"),
    ):
        control = page.locator(f".reveal section.present {sel}").first
        if not control.count():
            continue
        kinds.add(kind)
        for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "Space", "PageDown"):
            control.focus()
            page.keyboard.press(key)
            assert current(page) == sid, f"{deck}#{sid}: {key} in a {kind} moved the deck"
            page.wait_for_function(READY)
            if kind == "button" and page.locator(".reveal section.present .chart-data:not([hidden])").count():
                page.locator(".reveal section.present .chart-data-toggle").first.click()
    page.keyboard.press("Escape")  # from a control: the keys go back to the slide
    assert current(page) == sid


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_slide_reached_by_stepping_is_whole_and_legible_with_its_data_table_open_and_keys_stay_in_controls(
    tab, server, decks, scheme
):
    """Every slide of every deck reached with the keyboard, measured; after the first step in the first deck (a deck
    presented, one slide on), reveal.js's controls and progress bar stand out from the presentation's background.
    On each slide with a chart, once it is measured, its data table opens in a panel that scrolls inside the slide
    (``check_data_table``); then, in the light scheme, keys pressed in its controls act on the controls
    (``check_keys_in_controls``), and the arrow key from the slide moves the deck on (in the dark scheme Escape gives
    the keys back to the slide from the data toggle first)."""
    page = tab(viewport={"width": 1280, "height": 720}, color_scheme=scheme)
    bad, seen = [], 0
    tables, table_bad = 0, []
    kinds: set[str] = set()
    for deck in decks:
        open_slide(page, server + deck + "?present")
        ids = page.eval_on_selector_all("section.slide", "els => els.map(e => e.id)")
        charts = set(page.eval_on_selector_all("section.slide:has(figure.chart)", "els => els.map(e => e.id)"))
        keyed = None  # the chart slide whose controls were just tried: the arrow key moves the deck on from it
        for i, sid in enumerate(ids):
            if i:
                page.keyboard.press("ArrowRight")
                if keyed:
                    assert current(page) != keyed
                    keyed = None
            if i == 1 and deck == decks[0]:
                assert contrast(page, ".reveal .controls", "color") >= 3
                assert contrast(page, ".reveal .progress", "color") >= 3
            page.wait_for_function(f"() => window.SiteDeck.current() === {sid!r}")
            page.wait_for_function(READY)
            r = page.evaluate(MEASURE)
            seen += 1
            if r["over"] or r["small"]:
                bad.append(f"/{deck}#{sid}: {r['over']} px outside, small text {r['small']}")
            if sid in charts:
                check_data_table(page, deck, sid, table_bad)
                tables += 1
                if scheme == "light":
                    check_keys_in_controls(page, deck, sid, kinds)
                    keyed = sid
                else:
                    page.keyboard.press("Escape")  # from the data toggle: the keys go back to the slide
                    assert current(page) == sid
        assert keyed is None, f"{deck}#{keyed}: a chart on the deck's last slide (the arrow key has nowhere to go)"
    assert seen > 50
    assert bad == [], f"{len(bad)} of {seen} slides:\n" + "\n".join(bad)
    assert tables >= 7
    assert table_bad == [], "\n".join(table_bad)
    if scheme == "light":
        assert kinds == {"select", "button", "slider", "checkbox"}


def test_urls_reload_and_back_forward_step_through_the_slides(tab, server, decks):
    page = tab(viewport={"width": 1280, "height": 720})
    deck = decks[0]
    page.goto(server + deck)
    ids = page.eval_on_selector_all("section.slide", "els => els.map(e => e.id)")
    page.click("[data-present]")
    page.wait_for_selector(".deck-present-overlay .reveal.ready")
    assert page.evaluate("location.search") == "?present" and page.evaluate("location.hash") == f"#{ids[0]}"
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert current(page) == ids[3]
    page.reload()
    page.wait_for_selector(".deck-present-overlay .reveal.ready")
    assert current(page) == ids[3], "a reload reopens the slide shown"
    page.go_back()
    page.wait_for_function(f"() => window.SiteDeck.current() === {ids[2]!r}")
    page.go_back()
    page.wait_for_function(f"() => window.SiteDeck.current() === {ids[1]!r}")
    page.go_forward()
    page.wait_for_function(f"() => window.SiteDeck.current() === {ids[2]!r}")
    # Escape returns to the article, scrolled to the slide shown
    page.keyboard.press("Escape")
    page.wait_for_selector(".deck-present-overlay", state="detached")
    assert page.evaluate("location.search") == "" and page.evaluate("location.hash") == f"#{ids[2]}"
    top = page.evaluate(f"() => document.getElementById({ids[2]!r}).getBoundingClientRect().top")
    assert abs(top) < 2, top


def test_overview_help_slide_number_full_screen_key_and_way_out(tab, server, decks):
    """Also the wide screen's case of test_an_upright_phone_is_asked_to_turn_...: at 1280x720 the presentation
    says nothing about turning the screen (read first, on the same load)."""
    page = tab(viewport={"width": 1280, "height": 720}, has_touch=True)
    open_slide(page, server + decks[0] + "?present")
    hint = page.locator(".deck-present-overlay .deck-rotate-hint")
    assert hint.count() == 1
    assert hint.is_visible() is False
    # A presented deck draws a slide's charts when the slide or one beside it is shown: neither the first slide nor
    # the second has one, so once the page has been idle (when an article loads its other charts) none is drawn and
    # Plotly has not been asked for; the overview shows every slide, each chart drawn.
    assert page.evaluate(
        "() => new Promise(r => requestIdleCallback(() => r([document.querySelectorAll('figure.chart').length,"
        " document.querySelectorAll('figure.chart[data-ready]').length, !!document.querySelector('script[src*=plotly]')])))"
    ) == [2, 0, False]
    page.keyboard.press("o")
    assert page.locator(".reveal.overview").count() == 1
    page.wait_for_function(
        "() => [...document.querySelectorAll('figure.chart')].every(f => f.dataset.ready === 'true')"
    )
    page.keyboard.press("Escape")
    assert page.locator(".reveal.overview").count() == 0 and current(page) is not None
    page.keyboard.press("Shift+Slash")
    assert page.locator(".reveal .r-overlay-help").count() == 1
    page.keyboard.press("Escape")
    assert page.locator(".reveal .r-overlay-help").count() == 0 and current(page) is not None
    number = page.locator(".reveal > .slide-number")  # reveal's own, not the slides' article numbers
    assert number.is_visible() and re.fullmatch(r"\s*1\s*/\s*\d+\s*", number.inner_text())
    assert float(number.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 14
    # reveal's key list names full screen and the speaker view
    page.keyboard.press("Shift+Slash")
    help_text = page.locator(".reveal .r-overlay-help").inner_text()
    assert "Speaker view" in help_text and re.search(r"full ?screen", help_text, re.I)
    page.keyboard.press("Escape")
    # a visible way out, for touch screens
    leave = page.locator(".deck-present-tools .deck-leave")
    assert leave.is_visible()
    leave.tap()
    page.wait_for_selector(".deck-present-overlay", state="detached")


def test_a_number_clicked_on_a_slide_opens_its_card_in_the_presentation(tab, server, decks):
    page = tab(viewport={"width": 1280, "height": 720})
    for deck in decks:
        page.goto(server + deck)
        sid = page.evaluate(
            "() => { const a = document.querySelector('section.slide .slide-body a.fig'); return a && a.closest('section').id; }"
        )
        if sid:
            break
    assert sid
    open_slide(page, server + deck + f"?present#{sid}")
    url = page.url
    page.locator(".reveal section.present .slide-body a.fig").first.click()
    card = page.locator("#fig-card")
    assert card.is_visible() and "Source" in card.inner_text()
    assert page.url == url and current(page) == sid
    page.keyboard.press("Escape")
    assert not card.is_visible() and current(page) == sid, "Escape closes the card first"
    page.keyboard.press("ArrowRight")
    assert not card.is_visible()


def test_a_deck_opened_presenting_whose_reveal_does_not_load_shows_its_article(tab, server, decks):
    """A deck opened presenting keeps its slides out of the article's layout until reveal.js is in (deck.js): when
    reveal.js does not load, the article's slides are shown again."""
    page = tab(viewport={"width": 1280, "height": 720})
    page.route("**/vendor/reveal/reveal.js", lambda route: route.abort())
    try:
        page.goto(server + decks[0] + "?present")
        page.wait_for_function("() => !document.documentElement.classList.contains('deck-opening')")
        assert page.locator(".deck-slides > section.slide").first.is_visible()
        assert page.locator(".deck-present-overlay").count() == 0
    finally:
        page.unroute("**/vendor/reveal/reveal.js")


NOTES = "() => { const n = document.querySelector('.speaker-controls-notes:not(.hidden) .value'); return n ? n.innerText.trim() : null; }"
PREVIEW = "sel => { const f = document.querySelector(sel + ' iframe'); return f && f.contentWindow.SiteDeck ? f.contentWindow.SiteDeck.current() : null; }"


def open_speaker_view(context, page, errors: list[str]):
    with context.expect_page() as info:
        page.keyboard.press("s")
    view = info.value
    view.on("pageerror", lambda e: errors.append(str(e)))
    view.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    return view


def wait_synced(view, page, sid: str, then: str | None) -> None:
    """The view shows the deck's slide `sid` (its notes, when it has some), the next slide `then` in its preview."""
    want = page.evaluate(
        "id => { const n = document.querySelector('#' + id + ' aside.notes'); return n ? n.textContent.trim() : null; }",
        sid,
    )
    view.wait_for_function(
        f"([id, then, want]) => ({PREVIEW})('#current-slide') === id && ({PREVIEW})('#upcoming-slide') === then"
        f" && (want === null || (({NOTES})() || '').startsWith(want.slice(0, 40)))",
        arg=[sid, then, want],
        timeout=20_000,
    )


def test_speaker_view_is_a_page_of_the_site_with_notes_and_next_slide(browser, server, decks, site_dir):
    """S opens the speaker view at the slide shown, without moving the deck; it follows the deck, the deck follows
    it, and closed and opened again it is served as before."""
    html = (site_dir / "assets/vendor/reveal/speaker.html").read_text(encoding="utf-8")
    assert "<script>" not in html
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    deck, ids, sid = None, [], None
    for d in decks:
        page.goto(server + d)
        ids = page.evaluate("() => [...document.querySelectorAll('.deck-slides > section.slide')].map(s => s.id)")
        noted = page.evaluate(
            "() => [...document.querySelectorAll('section.slide aside.notes')].map(n => n.closest('section').id)"
        )
        # a slide with notes in the middle of its deck, so the deck can move both ways from it
        inner = [i for i in noted if 0 < ids.index(i) < len(ids) - 2]
        if inner:
            deck, sid = d, inner[len(inner) // 2]
            break
    assert deck, "no slide inside a deck has speaker notes"
    at = ids.index(sid)
    open_slide(page, server + deck + f"?present#{sid}")
    view = open_speaker_view(context, page, errors)
    assert view.url.endswith("assets/vendor/reveal/speaker.html")
    wait_synced(view, page, sid, ids[at + 1])
    assert view.locator(".speaker-controls-time .timer").is_visible()
    # the next-slide preview starts its slide below the view's "Upcoming" label; the current one does not move
    placed = "sel => document.querySelector(sel + ' iframe').contentDocument.documentElement.classList.contains('deck-upcoming')"
    assert view.evaluate(placed, "#upcoming-slide") and not view.evaluate(placed, "#current-slide")
    # the timer runs and the clock shows the time (both wait on the view's first calls on the deck)
    view.wait_for_function(
        "() => document.querySelector('.speaker-controls-time .seconds-value').textContent !== ':00'"
    )
    assert re.fullmatch(r"\d\d:\d\d [AP]M", view.locator(".speaker-controls-time .clock-value").inner_text().strip())
    view.wait_for_timeout(1500)  # the view's own debounced updates have had their time: the deck has not moved
    assert current(page) == sid
    # the deck moved: the view follows
    page.bring_to_front()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("id => window.SiteDeck.current() === id", arg=ids[at + 1])
    wait_synced(view, page, ids[at + 1], ids[at + 2])
    # a key pressed in the view moves the deck
    view.bring_to_front()
    view.keyboard.press("ArrowLeft")
    page.wait_for_function("id => window.SiteDeck.current() === id", arg=sid, timeout=20_000)
    wait_synced(view, page, sid, ids[at + 1])
    # closed, then opened again: served as the first
    view.close()
    page.bring_to_front()
    page.wait_for_timeout(1000)  # the deck's page learns of the closed window a moment later
    view = open_speaker_view(context, page, errors)
    wait_synced(view, page, sid, ids[at + 1])
    assert current(page) == sid
    # the presentation left and begun again (a new reveal.js deck): a view closed and opened again is served
    view.close()
    page.bring_to_front()
    page.keyboard.press("Escape")
    page.wait_for_function("() => !window.SiteDeck.deck()")
    page.click("[data-present]")
    page.wait_for_selector(".deck-present-overlay .reveal.ready")
    page.wait_for_function("id => window.SiteDeck.current() === id", arg=sid)
    view = open_speaker_view(context, page, errors)
    wait_synced(view, page, sid, ids[at + 1])
    view.bring_to_front()
    view.keyboard.press("ArrowRight")
    page.wait_for_function("id => window.SiteDeck.current() === id", arg=ids[at + 1], timeout=20_000)
    context.close()
    assert errors == []


STATE_JS = """name => { const f = document.getElementById('chart-' + name);
  return [...f.querySelectorAll('select, input')].map((e) => [e.id || e.name, e.type, e.value, e.checked]); }"""


def test_an_explorers_state_survives_entering_and_leaving_present_mode(tab, server, decks):
    """A setting made in the article is the one presented, survives a reload in present mode, and is the article's
    again (controls and URL) after Escape."""
    page = tab(viewport={"width": 1280, "height": 720})
    deck = next(d for d in decks if "01-transforms" in d)
    page.goto(server + deck)
    page.wait_for_selector("#chart-amdahl[data-ready='true']", state="attached", timeout=30_000)
    page.evaluate(
        """() => { const s = document.getElementById('amdahl-variant');
          s.selectedIndex = (s.selectedIndex + 1) % s.options.length; s.dispatchEvent(new Event('change', {bubbles: true}));
          const r = document.getElementById('amdahl-tokens'); r.stepUp(); r.dispatchEvent(new Event('input', {bubbles: true})); }"""
    )
    page.wait_for_function(
        "() => location.search.includes('amdahl.variant') && location.search.includes('amdahl.tokens')"
    )
    query = page.evaluate("() => location.search")
    want = page.evaluate(STATE_JS, "amdahl")
    slide = page.evaluate("() => document.getElementById('chart-amdahl').closest('section.slide').id")
    page.click("[data-present]")
    page.wait_for_selector(".deck-present-overlay .reveal.ready")
    assert page.evaluate(STATE_JS, "amdahl") == want
    params = page.evaluate("() => location.search")
    assert "present" in params and "amdahl.variant" in params and "amdahl.tokens" in params, params
    page.goto(server + deck + params + "#" + slide)
    page.wait_for_selector(".deck-present-overlay .reveal.ready")
    page.wait_for_selector("#chart-amdahl[data-state='ready']", state="attached", timeout=30_000)
    assert current(page) == slide
    assert page.evaluate(STATE_JS, "amdahl") == want, "a reload in present mode keeps the setting"
    page.keyboard.press("Escape")
    page.wait_for_selector(".deck-present-overlay", state="detached")
    assert page.evaluate(STATE_JS, "amdahl") == want
    assert page.evaluate("() => location.search") == query, "leaving keeps the explorer's parameters"


@pytest.mark.parametrize(("width", "height", "shown"), [(390, 844, True), (844, 390, False)])
def test_an_upright_phone_is_asked_to_turn_and_the_note_stays_clear_of_the_slide(
    tab, server, decks, width, height, shown
):
    """Upright, a 16:9 slide shows at under a third of its size: the presentation says to turn the phone, above the
    slide and below the buttons. Sideways, and on a wider screen (1280x720: checked by
    test_overview_help_slide_number_full_screen_key_and_way_out on its load of the deck), it says nothing."""
    page = tab(viewport={"width": width, "height": height}, has_touch=True, is_mobile=width < 1000)
    open_slide(page, server + decks[0] + "?present")
    hint = page.locator(".deck-present-overlay .deck-rotate-hint")
    assert hint.count() == 1
    assert hint.is_visible() is shown
    if shown:
        assert "Turn the phone sideways" in hint.inner_text()
        box = hint.bounding_box()
        tools = page.locator(".deck-present-tools").bounding_box()
        slide = page.locator(".reveal .slides > section.present").bounding_box()
        assert box and tools and slide
        assert tools["y"] + tools["height"] <= box["y"] and box["y"] + box["height"] <= slide["y"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert float(hint.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px")) >= 16
