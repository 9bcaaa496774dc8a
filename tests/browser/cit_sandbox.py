"""A sandbox site for the Compute in Transit explorers' browser tests, built once per test run.

A copy of this project's content/, templates/ and data/ plus one page per explorer (``content/x-<name>/``,
title "X", holding only ``::chart[<name>]``), built with the project's builder and served on loopback under a
strict Content-Security-Policy. The pages' checks collect console errors and warnings, page errors, CSP
violations and any request that leaves the server.
"""

from __future__ import annotations

import atexit
import functools
import http.server
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from site_builder.build import Options, build
from tests.conftest import PROJECT, REFERENCE, VENDOR

CHARTS = ("captured_energy", "loss_curves", "transit")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
)


class CspHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@functools.cache
def site_url() -> str:
    """Build the sandbox once and serve it; the server's root URL."""
    tmp = Path(tempfile.mkdtemp(prefix="cit-explorers-"))
    atexit.register(shutil.rmtree, tmp, True)
    project = tmp / "project"
    for part in ("content", "templates", "data"):
        shutil.copytree(PROJECT / part, project / part)
    for name in CHARTS:
        page = project / "content" / f"x-{name}" / "index.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"---\ntitle: X\n---\n\n::chart[{name}]\n", encoding="utf-8")
    out = tmp / "site"
    build(
        Options(project=project, out=out, vendor=VENDOR, reference=REFERENCE, cache=tmp / "cache"), log=lambda _: None
    )
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CspHandler, directory=str(out)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    atexit.register(srv.shutdown)
    return f"http://127.0.0.1:{srv.server_address[1]}/"


def open_chart(browser: Any, name: str) -> Iterator[Any]:
    """The explorer's page, ready; after the test, no problem may have been recorded."""
    origin = site_url()
    p = browser.new_page(viewport={"width": 1100, "height": 900})
    problems: list[str] = []
    p.on(
        "console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None
    )
    p.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    p.route("**/*", lambda route: route.continue_() if route.request.url.startswith(origin) else route.abort())
    p.on("request", lambda r: None if r.url.startswith(origin) else problems.append(f"request off the server: {r.url}"))
    p.add_init_script(
        "window.__csp = []; document.addEventListener('securitypolicyviolation',"
        " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    p.goto(f"{origin}x-{name}/")
    p.wait_for_selector(f"#chart-{name}[data-ready='true']", timeout=30_000)
    p.problems = problems  # type: ignore[attr-defined]
    yield p
    violations = p.evaluate("window.__csp")
    p.close()
    assert violations == [], f"CSP violations: {violations}"
    assert problems == [], problems


def outputs(page: Any, name: str) -> dict[str, str]:
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


def plot_config(page: Any, name: str) -> list[Any]:
    return page.evaluate(
        """name => { const c = document.querySelector('#chart-' + name + ' .js-plotly-plot')._context;
            return [c.displaylogo, c.responsive, c.displayModeBar]; }""",
        name,
    )


def unlabelled(page: Any, name: str) -> list[str]:
    return page.evaluate(
        """name => [...document.querySelectorAll('#chart-' + name + ' input, #chart-' + name + ' select')]
            .filter((e) => !(e.labels && e.labels.length)).map((e) => e.id || e.name)""",
        name,
    )


def plot_height(page: Any, name: str) -> float:
    return page.evaluate(
        "name => document.querySelector('#chart-' + name + ' .js-plotly-plot').getBoundingClientRect().height", name
    )
