"""The step-against-mask explorer in Chromium: its defaults print the results.md §4 row, every control moves
the chart and the printed values, and nothing logs an error, under a Content-Security-Policy without
inline scripts.

The page is the explorer sandbox's (tests/browser/explorer_sandbox.py: this project's content, templates and data,
plus one page holding only the chart), so the test does not depend on which deck shows the explorer. The expected
texts come from results.md through the tests' own table reader (tests/explorer_rows.py), not from the builder.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser import explorer_sandbox as sandbox
from tests.explorer_rows import results_md, section_tables

pytestmark = pytest.mark.browser

NAME = "step_mask"
VARIANTS = {"Hyena-2": "hyena2", "Hybrid 1:3": "hybrid", "Block-circulant": "circ"}
# results.md §4 column -> the explorer's data-out name
COLUMNS = {
    "Mask values per pass": "weight_values",
    "Frames, forward (H)": "forward_frames",
    "Frames, backward (conj H)": "backward_frames",
    "Weight masks": "weight_seconds",
    "Digital step": "digital_seconds",
    "Masks / step": "mask_over_step",
    "Data-by-data masks": "data_seconds",
    "Data-by-data, over 64 engines": "data_seconds_per_engine",
    "Removable": "removable_seconds",
    "Not overlapped": "step_serial_seconds",
    "Fully overlapped": "step_overlapped_seconds",
    "Passes": "passes",
    "Frames per pass": "frames_per_pass",
    "Mask time": "mask_time",
    "Relative to layer-major": "relative",
}


def row_key(label: str) -> tuple[str, int]:
    """'Hybrid 1:3, 8,192' -> ('hybrid', 8192)."""
    name, length = label.rsplit(", ", 1)
    return VARIANTS[name], int(length.replace(",", ""))


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    """§4's cells: per (variant, length) every column of the tables keyed by "Variant, length" (the masks
    tables and the step with the engine), and the schedule table's rows."""
    tables = section_tables(results_md("analysis"), "4")
    rows: dict[tuple[str, int], dict[str, str]] = {}
    for t in tables:
        for r in t:
            if "Variant, length" in r:
                rows.setdefault(row_key(r["Variant, length"]), {}).update(r)
    schedules = next(t for t in tables if t and "Schedule" in t[0])
    assert len(rows) == 12 and len(schedules) == 6
    return {"rows": rows, "schedules": schedules}


page = sandbox.page_fixture(NAME, sandbox.WIDE)


def printed(pg) -> dict[str, str]:
    return sandbox.outputs(pg, NAME)


def chart(pg) -> str:
    return sandbox.plot_json(pg, NAME, "data")


def test_defaults_print_the_results_row(page, expected):
    got = printed(page)
    row = expected["rows"]["hyena2", 2048]
    layer_major = next(r for r in expected["schedules"] if r["Schedule"] == "Layer-major")
    cells = {**row, **layer_major}
    want = {COLUMNS[c]: t for c, t in cells.items() if c in COLUMNS}
    assert len(want) == len(COLUMNS)
    assert {k: got[k] for k in want} == want
    assert page.problems == []


def test_every_row_of_the_masks_tables(page, expected):
    for (variant, length), row in expected["rows"].items():
        page.select_option(f"#{NAME}-variant", variant)
        page.check(f"#chart-{NAME} input[name='{NAME}-length'][value='{length}']")
        got = printed(page)
        want = {COLUMNS[c]: t for c, t in row.items() if c in COLUMNS}
        assert {k: got[k] for k in want} == want, row["Variant, length"]
    assert page.problems == []


def test_every_schedule_row(page, expected):
    for row in expected["schedules"]:
        label = row["Schedule"]
        seq = label.startswith("Sequence-major")
        page.check(f"#chart-{NAME} input[name='{NAME}-schedule'][value='{'sequence-major' if seq else 'layer-major'}']")
        if seq:
            page.select_option(f"#{NAME}-microbatch", re.search(r"m = (\d+)", label).group(1))
        mp = re.search(r"model-parallel (\d+)", label)
        page.select_option(f"#{NAME}-model-parallel", mp.group(1) if mp else "1")
        got = printed(page)
        want = {COLUMNS[c]: t for c, t in row.items() if c in COLUMNS}
        assert {k: got[k] for k in want} == want, label
    assert page.problems == []


def _moves(pg) -> list[tuple[str, object]]:
    """Each control moved once, from the keyboard where the control takes keys."""
    sel = f"#{NAME}-"
    return [
        ("variant", lambda: pg.select_option(sel + "variant", "circ")),
        ("sequence length", sandbox.press(pg, f"#chart-{NAME} input[name='{NAME}-length']:checked", "ArrowRight")),
        ("tokens per step", sandbox.press(pg, sel + "tokens", "ArrowLeft")),
        ("GPUs", sandbox.press(pg, sel + "gpus", "ArrowRight")),
        ("TFLOP/s", sandbox.press(pg, sel + "tflops", "ArrowRight")),
        ("model-parallel degree", lambda: pg.select_option(sel + "model-parallel", "4")),
        ("schedule", sandbox.press(pg, f"#chart-{NAME} input[name='{NAME}-schedule']:checked", "ArrowRight")),
        ("microbatch", lambda: pg.select_option(sel + "microbatch", "2")),
        ("overlapped", sandbox.press(pg, sel + "overlapped", "Space")),
        ("data-by-data on the engines", sandbox.press(pg, sel + "data-on-engines", "Space")),
    ]


def test_every_control_moves_the_chart_and_the_outputs(page):
    sandbox.assert_every_move_changes(page, NAME, _moves(page), chart)
    sandbox.resize(page)
    assert page.problems == []


def test_controls_are_labelled_and_the_chart_is_configured(page):
    sandbox.assert_labelled_and_configured(page, NAME)


def test_model_parallel_degrees_that_do_not_divide_the_gpus_are_offered_no_more(page):
    page.select_option(f"#{NAME}-model-parallel", "64")
    page.focus(f"#{NAME}-gpus")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")  # 64 -> 8 GPUs
    assert page.input_value(f"#{NAME}-model-parallel") == "8"
    assert printed(page)["replicas"] == "1"
    assert page.problems == []


def test_port_rejects_what_the_model_rejects(page):
    msg = page.evaluate(
        """() => { const p = window.Ports.stepMask;
            const t = JSON.parse(document.getElementById('data-step_mask').textContent);
            const s = Object.assign({}, t.defaults, {model_parallel: 3});
            try { p.budget(t.terms.hyena2['2048'], s); return null; } catch (e) { return String(e); } }"""
    )
    assert msg is not None and "does not divide" in msg


def test_legend_entries_are_keyboard_toggles(page):
    """The legend's entries are checkboxes: Space hides a colour's bars (or the dashed line) and shows them again,
    and the printed values stay as they are."""
    labels = page.evaluate(
        """name => [...document.querySelectorAll('#chart-' + name + ' fieldset.explorer-toggles input[type=checkbox]')]
            .map(e => [e.id, e.checked, e.labels[0].textContent.trim()])""",
        NAME,
    )
    assert [x[2] for x in labels] == [
        "Digital work (GPUs)",
        "Mask writes, forward (H)",
        "Mask writes, backward (conj H)",
        "Mask time the step waits for",
        "Data-by-data mask writes, spread over the engines",
        "Digital step (dashed line)",
    ]
    assert all(x[1] for x in labels)
    trace_y = "name => document.querySelector('#chart-' + name + ' .js-plotly-plot').data.map(t => t.y)"
    before_chart, before_out = chart(page), printed(page)
    page.focus(f"#{NAME}-series-0")  # digital work
    page.keyboard.press("Space")
    ys = page.evaluate(trace_y, NAME)
    assert ys[0][0] is None and ys[0][1] is None and ys[0][2] is not None
    page.focus(f"#{NAME}-series-5")  # the dashed line
    page.keyboard.press("Space")
    assert page.evaluate(trace_y, NAME)[2] == []
    assert printed(page) == before_out
    page.keyboard.press("Space")
    page.focus(f"#{NAME}-series-0")
    page.keyboard.press("Space")
    assert chart(page) == before_chart
    assert page.problems == []
