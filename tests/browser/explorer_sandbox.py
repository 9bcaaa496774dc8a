"""A sandbox site for every explorer's browser tests, built once per test run, and the page helpers they share.

A copy of this project's content/, templates/ and data/ plus one page per explorer of
``site_builder.explorers.EXPLORERS`` (``content/x-<name>/``, title "X", holding only ``::chart[<name>]``), built
with the project's builder and served on loopback with a strict Content-Security-Policy header on every
response. ``open_chart`` opens an explorer's page and, after the test, fails it on any console error or warning,
page error, CSP violation or request that left the server (such a request is also aborted).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from site_builder.build import Options, build
from site_builder.explorers import EXPLORERS
from tests.browser.tabs import TABS
from tests.conftest import PROJECT, REFERENCE, VENDOR

CHARTS = tuple(EXPLORERS)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
)
VIEWPORT = {"width": 1100, "height": 900}
WIDE = {"width": 1280, "height": 900}


class CspHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def build_sandbox(folder: Path) -> None:
    """Build the sandbox into ``folder``: its project copy in ``folder/project``, the site in ``folder/site``."""
    project = folder / "project"
    for part in ("content", "templates", "data"):
        shutil.copytree(PROJECT / part, project / part)
    for name in CHARTS:
        page = project / "content" / f"x-{name}" / "index.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"---\ntitle: X\n---\n\n::chart[{name}]\n", encoding="utf-8")
    # the explorers' pages are what is tried here: the decks' PDFs are not printed (tests/browser/test_decks.py and
    # test_deck_pdfs.py read the ones the main site's build prints)
    opts = Options(
        project=project,
        out=folder / "site",
        vendor=VENDOR,
        reference=REFERENCE,
        cache=folder / "cache",
        print_decks=False,
    )
    build(opts, log=lambda _: None)


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve the built sandbox ``site`` with the CSP header on every response; the server's root URL."""
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CspHandler, directory=str(site)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/"
    finally:
        srv.shutdown()
        srv.server_close()


CSP_RECORD = (
    "window.__csp = []; document.addEventListener('securitypolicyviolation',"
    " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
)


def _new_tab(browser: Any, viewport: dict[str, int], init: str) -> Any:
    p = browser.new_page(viewport=viewport)
    p.add_init_script(CSP_RECORD)
    if init:
        p.add_init_script(init)
    return p


def open_chart(
    browser: Any, origin: str, name: str, viewport: dict[str, int] = VIEWPORT, init: str = ""
) -> Iterator[Any]:
    """The explorer's page, ready; ``page.problems`` lists what went wrong so far, and after the test it must be
    empty and no CSP violation recorded (a request that leaves the server is one). ``init``: a script run in the
    page before any of its own. ``origin``: the sandbox's server (the ``explorer_origin`` fixture)."""
    # a tab kept between tests (tests/browser/tabs.py), by browser and init script, at the viewport asked for
    key = ("explorer", id(browser), init)
    p = TABS.take(key, viewport, lambda: _new_tab(browser, viewport, init))
    problems: list[str] = []
    listeners: list[tuple[str, Callable[[Any], None]]] = [
        (
            "console",
            lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None,
        ),
        ("pageerror", lambda e: problems.append(f"page error: {e}")),
        (
            "request",
            lambda r: None if r.url.startswith(origin) else problems.append(f"request off the server: {r.url}"),
        ),
    ]
    for event, listener in listeners:
        p.on(event, listener)
    try:
        p.goto(f"{origin}x-{name}/")
        p.wait_for_selector(f"#chart-{name}[data-ready='true']", timeout=30_000)
        p.problems = problems  # type: ignore[attr-defined]
        yield p
        violations = p.evaluate("window.__csp")
    finally:
        for event, listener in listeners:
            p.remove_listener(event, listener)
        TABS.give_back(key, p)
    assert violations == [], f"CSP violations: {violations}"
    assert problems == [], problems


def page_fixture(name: str, viewport: dict[str, int] = VIEWPORT) -> Any:
    """A test module's ``page`` fixture: ``page = page_fixture(NAME)`` opens the explorer's page for each test."""

    @pytest.fixture(name="page")
    def page(browser: Any, explorer_origin: str) -> Iterator[Any]:
        yield from open_chart(browser, explorer_origin, name, viewport)

    return page


# ------------------------------------------------------------------------------------------------ reading the page
def outputs(page: Any, name: str) -> dict[str, str]:
    """The printed values: data-out name -> text."""
    return page.evaluate(
        "name => Object.fromEntries([...document.querySelectorAll('#chart-' + name + ' [data-out]')]"
        ".map((e) => [e.dataset.out, e.textContent]))",
        name,
    )


def chart(page: Any, name: str) -> str:
    """The plot's traces and layout shapes, as JSON: changes whenever the drawing does."""
    return page.evaluate(
        """name => { const gd = document.querySelector('#chart-' + name + ' .js-plotly-plot');
          return JSON.stringify([gd.data.map((t) => [t.name, t.x, t.y, t.visible, t.marker && t.marker.opacity]),
                                 gd.layout.shapes, gd.layout.annotations, gd.layout.xaxis.title, gd.layout.yaxis.type,
                                 gd.layout.yaxis.range]); }""",
        name,
    )


def plot_json(page: Any, name: str, *paths: str) -> str:
    """The plot's properties at ``paths`` (such as "data" or "layout.xaxis.range"), as one JSON text."""
    return page.evaluate(
        """([name, paths]) => { const gd = document.querySelector('#chart-' + name + ' .js-plotly-plot');
          return JSON.stringify(paths.map((p) => p.split('.').reduce((o, k) => (o == null ? o : o[k]), gd))); }""",
        [name, list(paths)],
    )


def plot_config(page: Any, name: str) -> list[Any]:
    return page.evaluate(
        """name => { const c = document.querySelector('#chart-' + name + ' .js-plotly-plot')._context;
            return [c.displaylogo, c.responsive, c.displayModeBar]; }""",
        name,
    )


def unlabelled(page: Any, name: str) -> list[str]:
    """The explorer's inputs and selects without a label."""
    return page.evaluate(
        """name => [...document.querySelectorAll('#chart-' + name + ' input, #chart-' + name + ' select')]
            .filter((e) => !(e.labels && e.labels.length)).map((e) => e.id || e.name)""",
        name,
    )


def toggles(page: Any, name: str, labels: Sequence[str]) -> list[list[Any]]:
    """The explorer's show/hide boxes beside the chart ([id, type, label, checked, tab index] each), after checking
    that they are, in order, checkboxes labelled ``labels``, all checked and in the tab order."""
    boxes = page.evaluate(
        """name => Array.from(document.querySelectorAll('#chart-' + name + ' .explorer-toggles input'))
            .map((b) => [b.id, b.type, b.labels[0].textContent.trim(), b.checked, b.tabIndex])""",
        name,
    )
    assert [b[2] for b in boxes] == list(labels)
    assert all(b[1] == "checkbox" and b[3] and b[4] == 0 for b in boxes)
    return boxes


def assert_labelled_and_configured(page: Any, name: str) -> None:
    """Every control has a label; the plot has no Plotly logo or mode bar and is responsive; one figure caption."""
    assert unlabelled(page, name) == []
    assert plot_config(page, name) == [False, True, False]
    assert page.locator(f"#chart-{name} figcaption").count() == 1


def plot_height(page: Any, name: str) -> float:
    return page.evaluate(
        "name => document.querySelector('#chart-' + name + ' .js-plotly-plot').getBoundingClientRect().height", name
    )


def holder_height(page: Any, name: str) -> float:
    """The height of the whole explorer (controls, plot and printed values)."""
    return page.evaluate("name => document.getElementById('chart-' + name).getBoundingClientRect().height", name)


def settled(page: Any, read: Callable[[Any], Any], want: Any = None) -> Any:
    """``read(page)`` once the update in flight is done (Charts.update draws the latest update last): polled until
    two reads a frame apart agree (and equal ``want`` when given)."""
    last = None
    for _ in range(100):
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))")
        now = read(page)
        if now == last and (want is None or now == want):
            return now
        last = now
    return last


# ------------------------------------------------------------------------------------------------ moving controls
def press(page: Any, selector: str, k: str) -> Callable[[], object]:
    """A move: focus ``selector`` and press ``k``."""
    return lambda: (page.focus(selector), page.keyboard.press(k))


def assert_every_move_changes(
    page: Any, name: str, moves: Sequence[tuple[Any, ...]], drawn: Callable[[Any], str] | None = None
) -> None:
    """Make each move of ``moves`` ((label, move) or (label, move, changes the printed values)) in turn: each
    changes ``drawn(page)`` (default: ``chart``) and, unless its third item is False, the printed values."""
    for label, move, *prints in moves:
        before_chart = drawn(page) if drawn else chart(page, name)
        before_out = outputs(page, name)
        move()
        # an update asked for while the previous one is still finishing is drawn right after it: poll, a while
        after_chart = drawn(page) if drawn else chart(page, name)
        for _ in range(100):
            if after_chart != before_chart:
                break
            page.wait_for_timeout(50)
            after_chart = drawn(page) if drawn else chart(page, name)
        assert after_chart != before_chart, f"{label}: the chart did not change"
        if prints == [] or prints[0]:
            after_out = outputs(page, name)
            for _ in range(100):
                if after_out != before_out:
                    break
                page.wait_for_timeout(50)
                after_out = outputs(page, name)
            assert after_out != before_out, f"{label}: no printed value changed"


def resize(page: Any) -> None:
    """A window resize, and a moment to handle it."""
    page.evaluate("window.dispatchEvent(new Event('resize'))")
    page.wait_for_timeout(100)


def show_at_width(page: Any, name: str, width: int) -> None:
    """Hide the explorer, narrow the window to ``width``, show it again: waits until the plot fills its box."""
    page.evaluate("name => { document.getElementById('chart-' + name).style.display = 'none'; }", name)
    page.set_viewport_size({"width": width, "height": 900})
    page.evaluate(
        "name => { document.getElementById('chart-' + name).style.display = '';"
        " window.dispatchEvent(new Event('resize')); }",
        name,
    )
    page.wait_for_function(
        """name => { const gd = document.querySelector('#chart-' + name + ' .js-plotly-plot');
                   return Math.abs(gd._fullLayout.width - gd.getBoundingClientRect().width) < 2; }""",
        arg=name,
        timeout=5_000,
    )
