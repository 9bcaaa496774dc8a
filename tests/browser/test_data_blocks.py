"""Markup never leaves the element it is written into: a page title that holds ``<!--<script>`` is data in the
figure index's JSON block, and Chromium's parser still sees the footer and every script after it."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

from site_builder.build import Options, build
from tests.browser.conftest import QuietHandler
from tests.conftest import PROJECT, REFERENCE, VENDOR

HOSTILE = "A <!--<script> title"


def test_a_title_with_comment_and_script_openers_stays_data(tmp_path: Path, browser) -> None:
    project = tmp_path / "project"
    for name in ("data", "content", "templates"):
        shutil.copytree(PROJECT / name, project / name)
    optics = project / "content" / "cit" / "optics.md"
    lines = optics.read_text("utf-8").splitlines()
    lines = [f"title: '{HOSTILE}'" if line.startswith("title:") else line for line in lines]
    optics.write_text("\n".join(lines) + "\n", "utf-8")
    site = tmp_path / "site"
    opts = Options(project=project, out=site, vendor=VENDOR, reference=REFERENCE, use_cache=False, print_decks=False)
    build(opts, log=lambda _: None)  # the figure index is what is read here: no deck PDFs printed
    html = (site / "figures" / "index.html").read_text("utf-8")
    block = html.split('id="figure-pages">', 1)[1].split("</script>", 1)[0]
    assert "<" not in block and "\\u003c!--\\u003cscript" in block

    handler = functools.partial(QuietHandler, directory=str(site))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{srv.server_address[1]}/figures/")
        titles = page.evaluate("JSON.parse(document.getElementById('figure-pages').textContent)")
        assert HOSTILE in titles.values()
        assert page.evaluate("document.querySelector('footer') !== null")
        scripts = page.evaluate("[...document.querySelectorAll('script[src]')].map(s => s.getAttribute('src'))")
        assert any(s.endswith("figures.js") for s in scripts), scripts
        page.close()
    finally:
        srv.shutdown()
        srv.server_close()
