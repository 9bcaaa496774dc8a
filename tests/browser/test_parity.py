"""Every figure on every page equals, character for character, the results cell it names (checked on the walk over
every page of tests/browser/test_csp.py)."""

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


def check_figures(page, path: str, site_dir, tables: dict[str, dict]) -> tuple[int, bool]:  # type: ignore[no-untyped-def]
    """Every figure on ``page`` (``path`` loaded, its figure index's rows all shown) equals its cell (the cells read
    from the results files are kept in ``tables``, by file): how many were checked, and whether this page is the
    figure index (checked to show every registered figure). The walk over every page that reads them is
    tests/browser/test_csp.py's (test_every_page_loads_under_its_policy_..._and_its_figures_equal_their_cells)."""
    figures = page.evaluate(COLLECT)
    index = path == "figures/"
    if index:
        registered = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]
        assert {f["key"] for f in figures} == {f["key"] for f in registered}
    for f in figures:
        if f["file"] not in tables:
            tables[f["file"]] = cells(source_path(f["file"]))
        found = tables[f["file"]].get((f["section"], tuple(json.loads(f["row"])), f["col"]))
        assert found, f"{path}: {f['key']}: no cell {f['section']} / {f['row']} / {f['col']} in {f['file']}"
        assert len(found) == 1, f"{path}: {f['key']}: the cell is ambiguous in {f['file']}"
        assert f["text"] == found[0], f"{path}: {f['key']} shows {f['text']!r}, the cell reads {found[0]!r}"
    return len(figures), index
