"""Every figure on every page equals, character for character, the results cell it names."""

from __future__ import annotations

import json

import pytest

from tests.browser.cells import cells, source_path

pytestmark = pytest.mark.browser

COLLECT = """() => Array.from(document.querySelectorAll('.fig')).map(e => ({
  key: e.dataset.fig, text: e.textContent, file: e.dataset.file, section: e.dataset.section,
  row: e.dataset.row, col: e.dataset.col, href: e.getAttribute('href')}))"""


def goto(page, url: str) -> None:  # type: ignore[no-untyped-def]
    """Open a page; the figure index renders its rows from figures.json after load: wait for them, and have every
    file's table show all its rows (each opens with its first rows and a "Show all" button)."""
    page.goto(url)
    if page.locator("article.figures[data-figures]").count():
        page.wait_for_selector('article.figures[data-ready="true"]', timeout=20_000)
        page.evaluate("() => document.querySelectorAll('.fig-show-all:not([hidden])').forEach((b) => b.click())")


def test_every_figure_equals_its_cell(tab, server, pages):
    tables: dict[str, dict] = {}
    page = tab()
    checked = 0
    for path in pages:
        goto(page, server + path)
        for f in page.evaluate(COLLECT):
            if f["file"] not in tables:
                tables[f["file"]] = cells(source_path(f["file"]))
            found = tables[f["file"]].get((f["section"], tuple(json.loads(f["row"])), f["col"]))
            assert found, f"{path}: {f['key']}: no cell {f['section']} / {f['row']} / {f['col']} in {f['file']}"
            assert len(found) == 1, f"{path}: {f['key']}: the cell is ambiguous in {f['file']}"
            assert f["text"] == found[0], f"{path}: {f['key']} shows {f['text']!r}, the cell reads {found[0]!r}"
            checked += 1
    assert checked > 100


def test_every_registered_figure_is_shown_somewhere(tab, server, site_dir):
    index = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]
    page = tab()
    goto(page, server + "figures/")
    shown = {f["key"] for f in page.evaluate(COLLECT)}
    assert shown == {f["key"] for f in index}
