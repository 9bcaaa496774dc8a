"""Reader benchmarks (issue 11): the JavaScript each page loads, and /cit/ on a slow phone.

* JavaScript per page: every script the page loads on its own (no click, no search), as Chromium fetched it,
  raw and gzipped (gzip -9), read from the built files.
* /cit/ on DevTools' "Slow 4G" profile (562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up) with the CPU
  slowed 4x, both through a CDP session (Network.emulateNetworkConditions, Emulation.setCPUThrottlingRate),
  cache off: DOMContentLoaded, load, the first and the last chart drawn (figure.chart[data-ready]) and the long
  tasks of the main thread (total blocking time: each task's part over 50 ms), medians of ``--runs``. Served by a
  small server that gzips text files, as a real web server would (Python's http.server sends them raw).

    python scripts/bench_reader.py [--site DIR] [--runs 5] [--page cit/]

Without ``--site`` the site is built into a temporary folder first. Needs Debian's Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import ClassVar
from urllib.parse import unquote, urlsplit

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SLOW_4G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 1.6e6 / 8 * 0.9,
    "uploadThroughput": 750e3 / 8 * 0.9,
}
CPU_SLOWDOWN = 4
TEXT = {".html", ".js", ".css", ".json", ".svg", ".xml", ".txt", ".md", ".csv"}
CHARTS_READY = "() => Array.from(document.querySelectorAll('figure.chart')).every(f => f.dataset.ready === 'true')"
LONG_TASKS = """
window.__ready = [];
new MutationObserver((ms) => {
  for (const m of ms) if (m.target.dataset && m.target.dataset.ready === "true") window.__ready.push(performance.now());
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
window.__long = [];
try {
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); })
    .observe({ type: "longtask", buffered: true });
} catch (e) {}
"""


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site, gzipping text files for clients that accept it (compressed once, then cached)."""

    cache: ClassVar[dict[Path, bytes]] = {}

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(unquote(urlsplit(self.path).path)))
        if path.is_dir():
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in TEXT):
            super().do_GET()
            return
        body = self.cache.get(path)
        if body is None:
            body = self.cache[path] = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(GzipHandler, directory=str(site)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/"


def pages_of(site: Path) -> list[str]:
    found = sorted(p.relative_to(site).as_posix().removesuffix("index.html") for p in site.rglob("index.html"))
    return found + sorted(p.name for p in site.glob("*.html") if p.name != "index.html")


def js_per_page(browser, base: str, site: Path) -> list[tuple[str, int, int, int]]:  # type: ignore[no-untyped-def]
    """(page, scripts, raw bytes, gzipped bytes) of the JavaScript each page loads by itself."""
    rows = []
    for path in pages_of(site):
        page = browser.new_page()
        urls: list[str] = []
        page.on("request", lambda r, urls=urls: urls.append(r.url) if r.resource_type == "script" else None)
        page.goto(base + path, wait_until="networkidle")
        page.wait_for_function(CHARTS_READY, timeout=60_000)  # chart code loads as charts near the viewport
        page.wait_for_load_state("networkidle")
        page.close()
        files = sorted({site / unquote(urlsplit(u).path).lstrip("/") for u in urls if u.startswith(base)})
        raw = sum(f.stat().st_size for f in files)
        gz = sum(len(gzip.compress(f.read_bytes(), 9)) for f in files)
        rows.append((path, len(files), raw, gz))
    return rows


def slow_load(browser, url: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True)
    context.add_init_script(LONG_TASKS)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.goto(url, wait_until="load", timeout=120_000)
    page.wait_for_function(CHARTS_READY, timeout=120_000)
    page.wait_for_timeout(500)
    nav = page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0];"
        " return [n.domContentLoadedEventEnd, n.loadEventEnd, n.responseStart]; }"
    )
    long_tasks = page.evaluate("window.__long")
    ready = sorted(page.evaluate("window.__ready"))
    context.close()
    return {
        "first byte": nav[2] / 1000,
        "DOMContentLoaded": nav[0] / 1000,
        "load": nav[1] / 1000,
        "first chart drawn": ready[0] / 1000,
        "all charts drawn": ready[-1] / 1000,
        "total blocking": sum(max(0.0, d - 50) for _, d in long_tasks) / 1000,
        "longest task": max((d for _, d in long_tasks), default=0.0) / 1000,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, help="a built site (default: build one into a temporary folder)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--page", default="cit/")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            from site_builder.build import Options, build

            site = Path(tmp) / "site"
            build(Options(project=PROJECT, out=site), log=lambda _: None)
        srv, base = serve(site)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                print("JavaScript loaded by each page (gzip -9):")
                print(f"  {'page':<48} {'files':>5} {'raw kB':>9} {'gzip kB':>9}")
                for path, n, raw, gz in js_per_page(browser, base, site):
                    print(f"  /{path:<47} {n:>5} {raw / 1000:>9.1f} {gz / 1000:>9.1f}")
                runs = [slow_load(browser, base + args.page) for _ in range(args.runs)]
                browser.close()
        finally:
            srv.shutdown()
    print(
        f"\n/{args.page} on Slow 4G (562.5 ms RTT, 1.44 Mbit/s) with the CPU {CPU_SLOWDOWN}x slower, gzip, "
        f"median of {len(runs)} (min–max):"
    )
    for key in runs[0]:
        vals = [r[key] for r in runs]
        print(f"  {key:<18} {statistics.median(vals):6.2f} s   ({min(vals):.2f}–{max(vals):.2f})")


if __name__ == "__main__":
    main()
