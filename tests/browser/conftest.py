"""Browser fixtures: the site built once, served on loopback, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import explorer_sandbox
from tests.browser.tabs import TABS
from tests.conftest import PrintedBuild, built_once

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site_dir(printed_build: PrintedBuild) -> Path:
    """The site, built once for the whole run with its decks' PDFs (tests/conftest.py's ``printed_build``); no test
    writes into it."""
    return printed_build.site


@pytest.fixture(scope="session")
def explorer_origin(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Iterator[str]:
    """The explorer sandbox (tests/browser/explorer_sandbox.py), built once for the whole run (``built_once``: each
    worker built its own before, about 4 CPU-seconds each) and served by this worker with its strict CSP header."""
    folder = built_once(tmp_path_factory, worker_id, "explorers", explorer_sandbox.build_sandbox)
    with explorer_sandbox.serve(folder / "site") as origin:
        yield origin


class QuietServer(http.server.ThreadingHTTPServer):
    """The test server: a browser that hangs up mid-file (a tab closed while it loads) is not an error of the site;
    any other error of a request is printed as the server does."""

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


@pytest.fixture(scope="session")
def server(site_dir: Path) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(site_dir))
    srv = QuietServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def pages(site_dir: Path) -> list[str]:
    """Every HTML page of the site, as a path below the server root."""
    return sorted(p.relative_to(site_dir).as_posix().removesuffix("index.html") for p in site_dir.rglob("index.html"))


DEFAULT_VIEWPORT = {"width": 1280, "height": 720}  # Playwright's, for a context made without one


def take_tab(browser: Any, **options: Any) -> tuple[Hashable, Any]:
    """A kept tab (tests/browser/tabs.py) of a context made with ``options`` (Playwright's ``new_context``
    arguments), and its key for ``TABS.give_back``. The viewport is the tab's own (Playwright's set_viewport_size, as
    a context made with it has it): tabs are kept by the context's other options, so tests at different sizes share a
    context, its cache among them."""
    viewport = options.pop("viewport", DEFAULT_VIEWPORT)
    key = ("context", id(browser), repr(sorted(options.items())))
    return key, TABS.take(key, viewport, lambda: browser.new_context(viewport=viewport, **options).new_page())


class TabTaker:
    """``tab(**options)``: a tab of a browser context made with ``options`` (Playwright's ``new_context`` arguments),
    kept between tests (tests/browser/tabs.py). A test that listens to the tab's events adds its listeners with
    ``tab.on(page, event, listener)``: they are removed when the test ends, before the tab is kept for the next (a
    tab with a test's own listener left on it would not be kept)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self._taken: list[tuple[Hashable, Any]] = []
        self._listeners: list[tuple[Any, str, Callable[[Any], object]]] = []

    def __call__(self, **options: Any) -> Any:
        key, page = take_tab(self._browser, **options)
        self._taken.append((key, page))
        return page

    def on(self, page: Any, event: str, listener: Callable[[Any], object]) -> None:
        page.on(event, listener)
        self._listeners.append((page, event, listener))

    def give_back(self) -> None:
        for page, event, listener in self._listeners:
            page.remove_listener(event, listener)
        for key, page in self._taken:
            TABS.give_back(key, page)


@pytest.fixture
def tab(browser) -> Iterator[TabTaker]:  # type: ignore[no-untyped-def]
    """A ``TabTaker``: ``tab(**options)`` takes a kept tab, ``tab.on(...)`` listens to it for this test."""
    taker = TabTaker(browser)
    yield taker
    taker.give_back()
