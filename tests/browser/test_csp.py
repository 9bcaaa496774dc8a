"""Every page carries its Content-Security-Policy and works under it: no violation, and the chart renders (the same
walk checks that no page logs an error or asks for anything off the server, that its internal links and anchors
resolve, and that its figures equal their cells).

The policy forbids inline scripts and event handlers (the JSON data blocks are data, not code) and any
resource from elsewhere; Plotly's inline styles are allowed. A positive control checks that the listener
does see a violation, so an empty list means something.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

POLICY = (
    "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "img-src 'self' data:; style-src 'self' 'unsafe-inline'"
)
META = f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
RECORD = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || ''}:${e.lineNumber}`);
});
"""


def test_every_page_carries_the_policy_before_any_script_or_style(site_dir: Path, pages: list[str]) -> None:
    assert pages
    for path in pages:
        html = (site_dir / path / "index.html").read_text(encoding="utf-8")
        assert META in html, path
        head = html.split("</head>", 1)[0]
        first = min((head.find(t) for t in ("<script", "<link", "<style") if t in head), default=len(head))
        assert head.find(META) < first, f"{path}: the policy must come before any script or style sheet"


@pytest.fixture
def recording_page(browser):  # type: ignore[no-untyped-def]
    context = browser.new_context()
    context.add_init_script(RECORD)
    page = context.new_page()
    console: list[str] = []
    page.on(
        "console",
        lambda m: (
            console.append(f"{m.type}: {m.text}") if m.type == "error" or "Content Security Policy" in m.text else None
        ),
    )
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    yield page, console
    context.close()


def test_every_page_loads_under_its_policy_cleanly_its_links_resolve_and_its_figures_equal_their_cells(  # type: ignore[no-untyped-def]
    recording_page, server: str, pages: list[str], site_dir: Path
) -> None:
    """One walk over every page, each read in turn on one load (each check reads it as it did on a load of its own):

    - its links and ids as soon as it has loaded (tests/browser/test_pages.py's read_links; check_links checks them
      after the walk: internal links and anchors resolve);
    - loaded until the network is idle and every chart has drawn: no policy violation, no console error or warning,
      no request off the server, none failed or answered with an error;
    - every figure on it equals its cell; on the figure index (every file's rows shown), every registered figure is
      shown (tests/browser/test_parity.py's check_figures)."""
    from tests.browser.test_pages import check_links, read_links
    from tests.browser.test_parity import check_figures, show_every_row

    page, console = recording_page
    outside: list[str] = []
    failed: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}") if m.type == "warning" else None)
    page.on("request", lambda r: None if r.url.startswith(server) else outside.append(r.url))
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    violations: dict[str, list[str]] = {}
    targets: dict[str, set[str]] = {}
    loaded: dict[str, tuple[int, set[str]]] = {}
    tables: dict[str, dict] = {}
    checked, registered = 0, False
    for path in pages:
        resp = page.goto(server + path)
        read_links(page, server, path, resp, loaded, targets)
        page.wait_for_load_state("networkidle")
        if path == "cit/":
            page.wait_for_selector('#chart-loss_curves[data-ready="true"]', timeout=20_000)
            assert page.locator("#chart-loss_curves .js-plotly-plot").count() == 1
        # charts load as they near the viewport: bring every one in and let it draw before moving on
        for chart in page.locator("figure.chart[data-chart]").all():
            chart.scroll_into_view_if_needed()
            name = chart.get_attribute("data-chart")
            page.wait_for_selector(f'#chart-{name}[data-ready="true"]', timeout=60_000)
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll('figure.chart')).every(f => f.dataset.ready === 'true')",
            timeout=60_000,
        )
        show_every_row(page)
        n, index = check_figures(page, path, site_dir, tables)
        checked += n
        registered = registered or index
        got = page.evaluate("window.__csp")
        if got:
            violations[path] = got
    assert violations == {}
    assert console == []
    assert outside == []
    assert failed == []
    assert checked > 100
    assert registered, "the walk did not reach the figure index"
    check_links(page, server, pages, loaded, targets)


def test_the_listener_reports_a_violation(recording_page, server: str) -> None:  # type: ignore[no-untyped-def]
    """Positive control: an inline script added to a page is blocked, and the listener says so."""
    page, console = recording_page
    page.goto(server + "cit/", wait_until="networkidle")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';"
        " document.body.appendChild(s); }"
    )
    page.wait_for_function("() => window.__csp.length > 0", timeout=5_000)
    assert page.evaluate("window.__ran") is None
    assert any(v.startswith("script-src") for v in page.evaluate("window.__csp"))
    assert any("Content Security Policy" in c for c in console)
