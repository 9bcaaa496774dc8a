"""Browser fixtures: the site built once, served on loopback, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import fcntl
import functools
import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from site_builder.build import Options, build
from tests.conftest import PROJECT, REFERENCE, VENDOR

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
def site_dir(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The site, built once for the whole run: under pytest-xdist the first worker to get here builds it into the
    run's shared temporary folder while the others wait on a lock, then every worker serves the same files (no
    test writes into them)."""

    def build_into(out: Path) -> Path:
        build(Options(project=PROJECT, out=out, vendor=VENDOR, reference=REFERENCE), log=lambda _: None)
        return out

    if worker_id == "master":  # one process: its own folder
        return build_into(tmp_path_factory.mktemp("browser") / "site")
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, above every worker's own
    out, done = shared / "browser-site", shared / "browser-site.done"
    with open(shared / "browser-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                build_into(out)
                done.touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out


@pytest.fixture(scope="session")
def server(site_dir: Path) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(site_dir))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
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


@pytest.fixture(scope="session")
def _free_tabs() -> dict[str, list[object]]:
    return {}


@pytest.fixture
def tab(browser, _free_tabs: dict[str, list[object]]) -> Iterator[Callable[..., object]]:  # type: ignore[no-untyped-def]
    """``tab(**options)``: a tab of a browser context made with ``options`` (Playwright's ``new_context`` arguments),
    for a test that adds no listener to it. Tabs are kept between tests: opening one starts a renderer and loads
    every script afresh, which cost more than the page it opened. After the test the tab is given back on
    about:blank, its storage cleared and print emulation off; the next test gets it at the viewport asked for."""
    taken: list[tuple[str, object]] = []

    def take(**options: object) -> object:
        key = repr(sorted(options.items()))
        free = _free_tabs.setdefault(key, [])
        while free:
            page = free.pop()
            if not page.is_closed():  # type: ignore[attr-defined]
                page.set_viewport_size(options.get("viewport", DEFAULT_VIEWPORT))  # type: ignore[attr-defined]
                break
        else:
            page = browser.new_context(**options).new_page()
        taken.append((key, page))
        return page

    yield take
    for key, page in taken:
        try:
            page.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }")  # type: ignore[attr-defined]
            page.emulate_media(media="null")  # type: ignore[attr-defined]
            page.goto("about:blank")  # type: ignore[attr-defined]
        except Exception:  # a tab the test left unusable is not reused
            page.context.close()  # type: ignore[attr-defined]
            continue
        _free_tabs[key].append(page)
