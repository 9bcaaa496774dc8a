"""`make serve`: an edit rebuilds and reloads the open page; a failed rebuild shows its error and recovers."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import PROJECT, REFERENCE, VENDOR, PrintedBuild

pytestmark = pytest.mark.browser


def test_edit_reloads_and_a_failed_rebuild_shows_its_error(
    browser, printed_build: PrintedBuild, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    for name in ("content", "templates", "data"):
        shutil.copytree(PROJECT / name, project / name)
    # the results cache the run's own site was built with (site_dir's): serve's first build takes the models' results
    # and the decks' PDFs from it instead of computing and printing them again (this test is about what follows)
    shutil.copytree(printed_build.cache, project / ".cache", symlinks=True)
    cmd = [sys.executable, "-m", "site_builder", "serve", "--project", str(project), "--port", "0"]
    cmd += ["--vendor", str(VENDOR), "--reference", str(REFERENCE), "--out", str(tmp_path / "site")]
    proc = subprocess.Popen(cmd, cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = None
        deadline = time.monotonic() + 180
        assert proc.stdout is not None
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            m = re.search(r"on (http://127\.0\.0\.1:\d+/)", line)
            url = m.group(1) if m else None
        assert url, "the server did not start"
        page = browser.new_page()
        page.goto(url + "cit/")
        page_file = project / "content" / "cit" / "index.md"
        text = page_file.read_text(encoding="utf-8")

        page_file.write_text(text.replace("title: ", "title: Edited live, ", 1), encoding="utf-8")
        page.wait_for_function(
            "() => document.querySelector('h1').textContent.startsWith('Edited live')", timeout=60_000
        )

        page_file.write_text(text + "\nA broken reference :fig[no.such.figure].\n", encoding="utf-8")
        banner = page.locator("#build-error")
        banner.wait_for(state="visible", timeout=60_000)
        assert (
            "expected a registered figure key; list them with python -m site_builder figures [PATTERN], found 'no.such.figure'"
            in banner.inner_text()
        )
        assert page.locator("h1").inner_text().startswith("Edited live"), "the last good site is still served"

        page_file.write_text(text, encoding="utf-8")
        page.wait_for_function(
            "() => !document.getElementById('build-error') && !document.querySelector('h1').textContent.startsWith('Edited')",
            timeout=60_000,
        )
        page.close()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
