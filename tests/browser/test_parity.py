"""Every figure on every page equals, character for character, the results cell it names."""

from __future__ import annotations

import json

import pytest

from tests.browser.cells import cells, source_path

pytestmark = pytest.mark.browser

COLLECT = """() => Array.from(document.querySelectorAll('.fig')).map(e => ({
  key: e.dataset.fig, text: e.textContent, file: e.dataset.file, section: e.dataset.section,
  row: e.dataset.row, col: e.dataset.col, href: e.getAttribute('href')}))"""


def show_every_row(page) -> None:  # type: ignore[no-untyped-def]
    """On a page just loaded: the figure index renders its rows from figures.json after load: wait for them, and
    have every file's table show all its rows (each opens with its first rows and a "Show all" button)."""
    if page.locator("article.figures[data-figures]").count():
        page.wait_for_selector('article.figures[data-ready="true"]', timeout=20_000)
        page.evaluate("() => document.querySelectorAll('.fig-show-all:not([hidden])').forEach((b) => b.click())")


def test_every_figure_equals_its_cell_and_internal_links_and_anchors_resolve(tab, server, pages, site_dir):
    """One walk over every page: each page's links and ids are read as soon as it has loaded (tests/browser/
    test_pages.py's read_links; check_links then checks them), then every figure on it equals its cell; on the
    figure index, every registered figure is shown."""
    from tests.browser.test_pages import check_links, read_links

    tables: dict[str, dict] = {}
    page = tab()
    checked = 0
    targets: dict[str, set[str]] = {}
    loaded: dict[str, tuple[int, set[str]]] = {}
    registered = False
    for path in pages:
        resp = page.goto(server + path)
        read_links(page, server, path, resp, loaded, targets)
        show_every_row(page)
        figures = page.evaluate(COLLECT)
        if path == "figures/":
            index = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]
            assert {f["key"] for f in figures} == {f["key"] for f in index}
            registered = True
        for f in figures:
            if f["file"] not in tables:
                tables[f["file"]] = cells(source_path(f["file"]))
            found = tables[f["file"]].get((f["section"], tuple(json.loads(f["row"])), f["col"]))
            assert found, f"{path}: {f['key']}: no cell {f['section']} / {f['row']} / {f['col']} in {f['file']}"
            assert len(found) == 1, f"{path}: {f['key']}: the cell is ambiguous in {f['file']}"
            assert f["text"] == found[0], f"{path}: {f['key']} shows {f['text']!r}, the cell reads {found[0]!r}"
            checked += 1
    assert checked > 100
    assert registered, "the walk did not reach the figure index"
    check_links(page, server, pages, loaded, targets)
