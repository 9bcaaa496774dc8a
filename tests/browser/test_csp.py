"""Every page carries its Content-Security-Policy and works under it: no violation, and the chart renders.

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


def test_no_page_violates_its_policy_and_the_chart_renders(recording_page, server: str, pages: list[str]) -> None:  # type: ignore[no-untyped-def]
    page, console = recording_page
    violations: dict[str, list[str]] = {}
    for path in pages:
        page.goto(server + path, wait_until="networkidle")
        if path == "cit/":
            page.wait_for_selector('#chart-loss_curves[data-ready="true"]', timeout=20_000)
            assert page.locator("#chart-loss_curves .js-plotly-plot").count() == 1
        for chart in page.locator("figure.chart[data-chart]").all():
            name = chart.get_attribute("data-chart")
            page.wait_for_selector(f'#chart-{name}[data-ready="true"]', timeout=20_000)
        got = page.evaluate("window.__csp")
        if got:
            violations[path] = got
    assert violations == {}
    assert console == []


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
