"""The link-kernel explorer in Chromium: its defaults print the link-kernel rows of the simulation results (31.67 ms,
95.0%, binds until 140.0 GFLOP/s), every budget and placement prints its rows of §2, §3 and §6 and every plane
count its row of §8, every control moves the chart and the printed values, and nothing logs an error, under a
Content-Security-Policy without inline scripts.

The page is the explorer sandbox's (tests/browser/explorer_sandbox.py: this project's content, templates and data,
plus one page holding only the chart). The expected texts come from results.md through the tests' own table reader
(tests/explorer_rows.py), not from the builder.
"""

from __future__ import annotations

import pytest

from tests.browser import explorer_sandbox as sandbox
from tests.explorer_rows import results_md, section_tables

pytestmark = pytest.mark.browser

NAME = "link_kernel"
HOME = "2 DC × 4, 100 GbE"
BUDGET_ROWS = {
    "low": "[low] 10 GFLOP/s charged",
    "high": "[high] 99 GFLOP/s charged",
    "free": "[free] transform not charged",
}
STAGE_COLUMNS = {
    "Port, G values/s": "rate_port",
    "Optics, G values/s": "rate_optics",
    "Compute, G values/s": "rate_compute",
    "FPGA, G values/s": "rate_fpga",
    "Binding stage": "binding",
    "Module time per step": "module_time",
}
RESOURCES = ("GPU compute", "intra-DC link", "module port", "module optics", "module compute", "module FPGA")
RESOURCES += ("inter-DC link",)


def slug(resource: str) -> str:
    return "hot_" + resource.replace(" ", "_").replace("-", "_").lower()


@pytest.fixture(scope="module")
def expected() -> dict:
    md = results_md("simulation")
    s2 = section_tables(md, "2")
    s3 = section_tables(md, "3")
    return {
        "times": {r["Variant"]: r[HOME] for r in s2[0]},
        "steps": {r["Variant"].removesuffix(", step"): r[HOME] for r in s2[1]},
        "stages": {r["Budget"]: r for r in s3[0]},
        "stops": next(r["Value"] for r in s3[1] if r["Quantity"].startswith("Budget above which")),
        "hot": {r["Variant"]: r for r in section_tables(md, "6")[0]},
        "planes": {int(r["Planes"].split()[0]): r for r in section_tables(md, "8")[0]},
    }


def row_label(rows: dict, variant: str, budget: str) -> str:
    """The results row of E ('E band …') or E′ ('E′ band …') at a budget."""
    name = "E′" if variant == "Ep" else "E"
    return next(k for k in rows if k.startswith(name + " ") and f"[{budget}]" in k)


page = sandbox.page_fixture(NAME, sandbox.WIDE)


def printed(pg) -> dict[str, str]:
    return sandbox.outputs(pg, NAME)


def chart(pg) -> str:
    return sandbox.plot_json(pg, NAME, "data", "layout.xaxis.range")


def choose(pg, variant: str, budget: str) -> None:
    pg.select_option(f"#{NAME}-variant", variant)
    pg.check(f"#{NAME}-budget-{budget}")


def set_planes(pg, planes: int) -> None:
    pg.focus(f"#{NAME}-planes")
    pg.keyboard.press("Home")
    for _ in range(planes - 1):
        pg.keyboard.press("ArrowRight")


def rows_of(expected: dict, variant: str, budget: str) -> dict[str, str]:
    """What the explorer must print for E or E′ at a budget (8 planes, 20 G values/s): §2, §3 and §6."""
    stage = expected["stages"][BUDGET_ROWS[budget]]
    hot = expected["hot"][row_label(expected["hot"], variant, budget)]
    want = {out: stage[col] for col, out in STAGE_COLUMNS.items()}
    want.update({slug(r): hot[r] for r in RESOURCES})
    want["stops_binding"] = expected["stops"]
    want["step"] = expected["steps"][row_label(expected["steps"], variant, budget)]
    want["time"] = expected["times"][row_label(expected["times"], variant, budget)]
    return want


def test_defaults_print_the_link_kernel_rows(page, expected):
    got = printed(page)
    want = rows_of(expected, "E", "low")
    assert {k: got[k] for k in want} == want
    assert (got["module_time"], got["hot_module_compute"], got["stops_binding"]) == (
        "31.67 ms",
        "95.0%",
        "140.0 GFLOP/s",
    )
    assert page.input_value(f"#{NAME}-planes") == "8" and page.input_value(f"#{NAME}-fpga") == "20"
    assert page.problems == []


def test_every_budget_and_placement_prints_its_rows(page, expected):
    for variant in ("E", "Ep"):
        for budget in ("low", "high", "free"):
            choose(page, variant, budget)
            got = printed(page)
            want = rows_of(expected, variant, budget)
            assert {k: got[k] for k in want} == want, (variant, budget)
    assert page.problems == []


def test_every_plane_count_prints_its_row_of_section_8(page, expected):
    choose(page, "E", "free")
    for planes, row in expected["planes"].items():
        set_planes(page, planes)
        got = printed(page)
        assert (got["rate_optics"], got["binding"], got["steps"], got["time"]) == (
            row["Optics, G values/s"],
            row["Binding stage"],
            row["Steps to 3.158"],
            row["E [free]"],
        ), planes
        page.select_option(f"#{NAME}-variant", "Ep")
        assert printed(page)["time"] == row["E′ [free] (hypothetical)"], planes
        page.select_option(f"#{NAME}-variant", "E")
    set_planes(page, 5)
    assert printed(page)["time"] == "no run"
    assert page.problems == []


def test_every_control_moves_the_chart_and_the_outputs(page):
    sel = f"#{NAME}-"
    moves = [
        ("where the module sits", lambda: page.select_option(sel + "variant", "Ep")),
        ("budget", sandbox.press(page, f"#chart-{NAME} input[name='{NAME}-budget']:checked", "ArrowRight")),
        ("bit planes", sandbox.press(page, sel + "planes", "ArrowLeft")),
        ("FPGA rate", sandbox.press(page, sel + "fpga", "Home")),
    ]
    sandbox.assert_every_move_changes(page, NAME, moves, chart)
    assert printed(page)["binding"] == "fpga" and printed(page)["hot_module_fpga"] != "·"
    sandbox.resize(page)
    assert page.problems == []


def test_controls_are_labelled_show_their_values_and_the_chart_is_configured(page):
    sandbox.assert_labelled_and_configured(page, NAME)
    assert page.text_content(f"#{NAME}-planes-value") == "8"
    assert page.text_content(f"#{NAME}-fpga-value") == "20 G values/s"
    assert sandbox.holder_height(page, NAME) < 700


def segments(pg) -> dict[str, float | None]:
    """The step's bar as drawn: resource -> its segment's length in ms (None: no segment)."""
    return pg.evaluate(
        """name => { const gd = document.querySelector('#chart-' + name + ' .js-plotly-plot');
            const t = gd.data.find((t) => t.yaxis === 'y2');
            return Object.fromEntries(t.hovertext.map((r, i) => [r, t.x[i]])); }""",
        NAME,
    )


def test_the_parts_of_the_step_are_checkboxes_operated_from_the_keyboard(page):
    boxes = sandbox.toggles(page, NAME, list(RESOURCES))
    # After the last setting the Tab key stops at the explorer's Reset, then at the first part's checkbox.
    page.focus(f"#{NAME}-fpga")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.className") == "explorer-reset"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == boxes[0][0]

    full, values = sandbox.settled(page, segments), printed(page)
    assert full["module compute"] and full["module optics"] is None  # [low]: the transform binds
    for box_id, resource, *_ in ((b[0], b[2]) for b in boxes):
        page.focus(f"#{box_id}")
        page.keyboard.press("Space")
        assert not page.is_checked(f"#{box_id}")
        got = sandbox.settled(page, segments)
        assert got[resource] is None, resource
        assert {r: v for r, v in got.items() if r != resource} == {r: v for r, v in full.items() if r != resource}
        page.keyboard.press("Space")
        assert page.is_checked(f"#{box_id}") and sandbox.settled(page, segments, full) == full
    # Hidden parts stay hidden when a setting moves; the printed values do not depend on them.
    page.focus(f"#{NAME}-show-4")
    page.keyboard.press("Space")
    page.select_option(f"#{NAME}-variant", "Ep")
    got = sandbox.settled(page, segments)
    assert got["module compute"] is None and got["GPU compute"] and got != full
    page.select_option(f"#{NAME}-variant", "E")
    assert printed(page) == values
    assert page.problems == []
