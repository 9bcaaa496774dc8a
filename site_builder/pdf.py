"""``make pdf``: print every deck of a built site to PDF, one 16:9 slide per page, in Chromium.

Runs after ``make site`` (never inside it: the build stays Python-only). Each deck page is opened
from a loopback server in Debian's Chromium, its charts are drawn, and Playwright's ``page.pdf()``
prints it with the print stylesheet (1280×720 CSS pixels a page); the PDF is written beside the
deck's folder, ``site/<series>/decks/NN-slug.pdf``, where the deck page and the hub link to it.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from site_builder.errors import BuildError

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serving(site: Path) -> Iterator[str]:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/"
    finally:
        srv.shutdown()
        srv.server_close()


def deck_pages(site: Path) -> list[str]:
    """Site paths of the deck pages (``<series>/decks/<slug>/``)."""
    return sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("*/decks/*/index.html"))


def print_decks(site: Path, browser: object, base: str) -> list[Path]:
    written = []
    for url in deck_pages(site):
        page = browser.new_page(viewport={"width": 1280, "height": 720})  # type: ignore[attr-defined]
        page.goto(base + url, wait_until="networkidle")
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll('figure.chart')).every(f => f.dataset.ready === 'true')",
            timeout=30_000,
        )
        page.emulate_media(media="print")
        page.evaluate("() => window.SiteDeck && window.SiteDeck.fitForPrint()")
        out = site / (url.rstrip("/") + ".pdf")
        page.pdf(path=str(out), width="1280px", height="720px", print_background=True, prefer_css_page_size=True)
        page.close()
        written.append(out)
    return written


def main(site: Path) -> int:
    if not (site / "index.html").is_file():
        raise BuildError(f"{site}: site: expected a built site (run make site), found none")
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise BuildError(
            "pdf: playwright: expected it installed (`make pdf` installs requirements/test.txt), found it missing"
        ) from None
    if not Path(CHROMIUM).is_file():
        raise BuildError(f"pdf: {CHROMIUM}: expected Debian's chromium (`make chromium` installs it), found none")
    try:
        with serving(site) as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for out in print_decks(site, browser, base):
                print(f"wrote {out.relative_to(site.parent) if out.is_relative_to(site.parent) else out}")
            browser.close()
    except PlaywrightError as e:
        first = (str(e).strip().splitlines() or ["no message"])[0][:200]
        raise BuildError(f"pdf: {CHROMIUM}: expected the browser to print the decks, found {first}") from None
    return 0
