"""The break-even explorer in Chromium: its defaults print the 100 GbE column of the simulation's §2 and the E-basis
rows of §7a; every recorded point and budget prints every 2 DC × 4 cell of §2, the two step bases and the unrounded
mean print every row of §7a; the log slider runs from 0.1 to 1,000 GB/s; every control moves the chart and the
printed values, and nothing logs an error, under a Content-Security-Policy without inline scripts.

The page is the explorer sandbox's (tests/browser/explorer_sandbox.py: this project's content, templates and data,
plus one page holding only the chart). The expected texts come from results.md through the tests' own table reader
(tests/explorer_rows.py), not from the builder.
"""

from __future__ import annotations

import re

import pytest

from tests.browser import explorer_sandbox as sandbox
from tests.explorer_rows import results_md, section_tables

pytestmark = pytest.mark.browser

NAME = "breakeven"
# results.md §2 column -> the recorded point's key in the explorer
POINTS = {
    "2 DC × 4, 8 Gb/s WAN (illustrative)": "2dc4.8gbps",
    "2 DC × 4, 25 GbE": "2dc4.25gbe",
    "2 DC × 4, 100 GbE": "2dc4.100gbe",
    "2 DC × 4, 400G (illustrative)": "2dc4.400g",
    "2 DC × 4, 800G (illustrative)": "2dc4.800g",
}
NAMES = {"A": "A", "B": "B", "C": "C", "C′": "Cp", "E": "E", "E′": "Ep"}


def row_id(label: str) -> tuple[str, str]:
    """'E′ band computed … [low] (hypothetical)' -> ('Ep', 'low'); 'A AdamW, …' -> ('A', 'free')."""
    budget = re.search(r"\[(free|low|high)\]", label)
    return NAMES[label.split(" ", 1)[0]], budget.group(1) if budget else "free"


@pytest.fixture(scope="module")
def expected() -> dict:
    md = results_md("simulation")
    s2 = section_tables(md, "2")
    times: dict[tuple[str, str], dict[str, str]] = {}
    for r in s2[0]:
        times[row_id(r["Variant"])] = {POINTS[c]: r[c] for c in POINTS}
    steps: dict[tuple[str, str], dict[str, str]] = {}
    for r in s2[1]:
        steps[row_id(r["Variant"].removesuffix(", step"))] = {POINTS[c]: r[c] for c in POINTS}
    rows_7a = section_tables(md, "7")[0]
    assert len(times) == len(steps) == 10 and len(rows_7a) == 23
    return {"times": times, "steps": steps, "7a": rows_7a}


page = sandbox.page_fixture(NAME, sandbox.WIDE)


def printed(pg) -> dict[str, str]:
    return sandbox.outputs(pg, NAME)


def chart(pg) -> str:
    return sandbox.plot_json(pg, NAME, "data", "layout.shapes", "layout.annotations")


def crossing_rows(pg) -> dict[str, tuple[str, str, str]]:
    """The break-even table as shown: row label -> (crossing, Gb/s, wins)."""
    return pg.evaluate(
        """name => Object.fromEntries(Array.from(document.querySelectorAll('#chart-' + name + ' tr[data-pair]'))
            .map(r => [r.querySelector('th').textContent,
                       Array.from(r.querySelectorAll('td')).map(td => td.textContent)]))""",
        NAME,
    )


def cells_at(expected: dict, point: str, budget: str) -> dict[str, str]:
    want = {}
    for v in NAMES.values():
        b = budget if v in ("E", "Ep") else "free"
        want[f"time-{v}"] = expected["times"][v, b][point]
        want[f"step-{v}"] = expected["steps"][v, b][point]
    return want


def rows_7a(expected: dict, basis: str) -> dict[str, list[str]]:
    """§7a's rows for a steps basis ('e' or 'c'), with the measured rows, by their label."""
    out = {}
    for r in expected["7a"]:
        label = r["Challenger vs incumbent"]
        if label.endswith(f"({basis})") or label.endswith("(m)"):
            out[label] = [r["Crossing"], r["Gb/s"], r["Challenger wins"]]
    return out


def test_defaults_print_the_100gbe_column_and_the_e_rows(page, expected):
    got = printed(page)
    want = cells_at(expected, "2dc4.100gbe", "free")
    assert {k: got[k] for k in want} == want
    assert got["bandwidth"] == "12.50 GB/s"
    assert crossing_rows(page) == rows_7a(expected, "e")
    assert page.input_value(f"#{NAME}-point") == "p:2dc4.100gbe"
    assert page.problems == []


def test_every_recorded_point_and_budget_prints_every_2dc4_cell(page, expected):
    checked = 0
    for budget in ("free", "low", "high"):
        page.check(f"#{NAME}-budget-{budget}")
        for point in POINTS.values():
            page.select_option(f"#{NAME}-point", f"p:{point}")
            got = printed(page)
            want = cells_at(expected, point, budget)
            assert {k: got[k] for k in want} == want, (point, budget)
            checked += len(want)
    assert checked == 3 * 5 * 12
    assert page.problems == []


def test_both_bases_and_the_unrounded_mean_print_every_row_of_7a(page, expected):
    shown = 0
    for basis in ("e", "c"):
        page.check(f"#{NAME}-basis-{basis}")
        assert crossing_rows(page) == rows_7a(expected, basis), basis
        shown += len(rows_7a(expected, basis))
    page.check(f"#{NAME}-mean")
    mean_row = next(r for r in expected["7a"] if "unrounded mean" in r["Challenger vs incumbent"])
    got = crossing_rows(page)["C′ vs A (m, unrounded mean steps)"]
    assert got == [mean_row["Crossing"], mean_row["Gb/s"], mean_row["Challenger wins"]]
    assert shown - 6 + 1 == len(expected["7a"])  # the measured rows are shown with both bases
    assert page.problems == []


def test_a_crossing_is_a_recorded_point(page, expected):
    page.select_option(f"#{NAME}-point", "x:Ep_vs_A")
    got = printed(page)
    assert got["bandwidth"] == "1.57 GB/s"
    assert got["cross-Ep_vs_A"] == "1.57 GB/s"
    assert page.problems == []


def test_the_log_slider_runs_from_0_1_to_1000_gb_s(page):
    slider = f"#{NAME}-bandwidth"
    page.focus(slider)
    page.keyboard.press("Home")
    assert printed(page)["bandwidth"] == "0.10 GB/s"
    assert page.input_value(f"#{NAME}-point") == ""  # the slider moved away from the recorded points
    page.keyboard.press("End")
    assert printed(page)["bandwidth"] == "1,000.00 GB/s"
    assert page.text_content(f"#{NAME}-bandwidth-value") == "1,000.00 GB/s (8,000.00 Gb/s)"
    page.keyboard.press("ArrowLeft")
    assert printed(page)["bandwidth"] == "977.24 GB/s"  # one step of 0.01 in log10
    page.evaluate(
        "s => { const e = document.querySelector(s); e.value = '1'; e.dispatchEvent(new Event('input')); }", slider
    )
    assert printed(page)["bandwidth"] == "10.00 GB/s"
    assert page.problems == []


def test_every_control_moves_the_chart_and_the_outputs(page):
    sel = f"#{NAME}-"
    moves = [
        ("bandwidth", sandbox.press(page, sel + "bandwidth", "ArrowLeft")),
        ("recorded point", lambda: page.select_option(sel + "point", "p:2dc4.8gbps")),
        ("steps", sandbox.press(page, f"#chart-{NAME} input[name='{NAME}-basis']:checked", "ArrowRight")),
        ("budget", sandbox.press(page, f"#chart-{NAME} input[name='{NAME}-budget']:checked", "ArrowRight")),
        ("unrounded mean", sandbox.press(page, sel + "mean", "Space")),
    ]
    sandbox.assert_every_move_changes(page, NAME, moves, chart)
    sandbox.resize(page)
    assert page.problems == []


def test_controls_are_labelled_and_the_chart_is_configured(page):
    sandbox.assert_labelled_and_configured(page, NAME)
    assert sandbox.holder_height(page, NAME) < 720  # the whole explorer fits a 1280x720 screen


def drawn(pg) -> dict[str, list]:
    """Each trace's y values by name (null: no point drawn)."""
    return pg.evaluate(
        """name => Object.fromEntries(document.querySelector('#chart-' + name + ' .js-plotly-plot').data
            .map((t) => [t.name, Array.from(t.y)]))""",
        NAME,
    )


def test_the_lines_and_marks_are_checkboxes_operated_from_the_keyboard(page):
    boxes = sandbox.toggles(page, NAME, list(NAMES))
    # The next stops of the Tab key after the unrounded mean: the break-even marks, the Reset, then the first line.
    page.focus(f"#{NAME}-mean")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == f"{NAME}-marks"
    page.keyboard.press("Tab")  # the explorer's Reset, after its controls
    assert page.evaluate("() => document.activeElement.className") == "explorer-reset"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == boxes[0][0]

    full, values = sandbox.settled(page, drawn), printed(page)
    dots = "At this bandwidth"
    assert all(v is not None for v in full[dots]) and len(full[dots]) == 6
    for i, (box_id, name) in enumerate((b[0], b[2]) for b in boxes):
        page.focus(f"#{box_id}")
        page.keyboard.press("Space")
        assert not page.is_checked(f"#{box_id}")
        got = sandbox.settled(page, drawn)
        assert all(v is None for v in got[name]), name  # the line
        assert got[dots][i] is None and [v for j, v in enumerate(got[dots]) if j != i] == [
            v for j, v in enumerate(full[dots]) if j != i
        ]
        assert {k: v for k, v in got.items() if k not in (name, dots)} == {
            k: v for k, v in full.items() if k not in (name, dots)
        }
        page.keyboard.press("Space")
        assert page.is_checked(f"#{box_id}") and sandbox.settled(page, drawn, full) == full
    page.focus(f"#{NAME}-marks")
    page.keyboard.press("Space")
    got = sandbox.settled(page, drawn)
    assert full["Break-even"] and all(v is None for v in got["Break-even"])
    # Hidden series stay hidden when a setting moves; the printed values do not depend on them.
    page.focus(f"#{NAME}-show-4")
    page.keyboard.press("Space")
    assert printed(page) == values
    page.focus(f"#{NAME}-bandwidth")
    page.keyboard.press("ArrowLeft")
    got = sandbox.settled(page, drawn)
    assert all(v is None for v in got["E"]) and got[dots][4] is None and got[dots][0] is not None
    assert all(v is None for v in got["Break-even"]) and got[dots] != full[dots]
    assert page.problems == []
