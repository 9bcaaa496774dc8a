"""The step-against-mask explorer in Chromium: its defaults print the results.md §4 row, every control moves
the chart and the printed values, and nothing logs an error, under a Content-Security-Policy without
inline scripts.

The page is built in a sandbox project (this project's content, templates and data, plus one page holding
only the chart), so the test does not depend on which deck shows the explorer. The expected texts come from
results.md through this file's own table reader, not from the builder.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from site_builder.build import Options, build
from tests.browser.conftest import QuietHandler
from tests.conftest import PROJECT, REFERENCE, VENDOR

pytestmark = pytest.mark.browser

NAME = "step_mask"
CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"
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


def section_tables(md: str, number: str) -> list[list[dict[str, str]]]:
    """The tables of section ``number`` of a results.md, each a list of {column: cell text} rows."""
    tables: list[list[dict[str, str]]] = []
    inside = False
    header: list[str] | None = None
    for line in md.splitlines():
        if line.startswith("## "):
            inside = line.startswith(f"## {number}. ")
            header = None
            continue
        if not inside or not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            tables.append([])
        elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
            tables[-1].append(dict(zip(header, cells, strict=True)))
    return tables


def row_key(label: str) -> tuple[str, int]:
    """'Hybrid 1:3, 8,192' -> ('hybrid', 8192)."""
    name, length = label.rsplit(", ", 1)
    return VARIANTS[name], int(length.replace(",", ""))


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    """§4's cells: per (variant, length) every column of the tables keyed by "Variant, length" (the masks
    tables and the step with the engine), and the schedule table's rows."""
    tables = section_tables((PROJECT / "data" / "analysis" / "results.md").read_text(encoding="utf-8"), "4")
    rows: dict[tuple[str, int], dict[str, str]] = {}
    for t in tables:
        for r in t:
            if "Variant, length" in r:
                rows.setdefault(row_key(r["Variant, length"]), {}).update(r)
    schedules = next(t for t in tables if t and "Schedule" in t[0])
    assert len(rows) == 12 and len(schedules) == 6
    return {"rows": rows, "schedules": schedules}


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("step_mask")
    project = root / "project"
    for part in ("content", "templates", "data"):
        shutil.copytree(PROJECT / part, project / part)
    page = project / "content" / "x" / "index.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(f"---\ntitle: X\n---\n\n::chart[{NAME}]\n", encoding="utf-8")
    out = root / "site"
    build(
        Options(project=project, out=out, vendor=VENDOR, reference=REFERENCE, cache=root / "cache"),
        log=lambda _: None,
    )
    handler = functools.partial(QuietHandler, directory=str(out))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/x/"
    srv.shutdown()
    srv.server_close()


@pytest.fixture()
def page(browser, sandbox):
    """The chart page under a CSP without inline scripts; console errors and page errors collected."""
    pg = browser.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("console", lambda m: pg.errors.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: pg.errors.append(f"pageerror: {e}"))

    def with_csp(route):
        resp = route.fetch()
        headers = dict(resp.headers)
        if "text/html" in headers.get("content-type", ""):
            headers["content-security-policy"] = CSP
        route.fulfill(response=resp, headers=headers)

    pg.route(re.compile(r"^http://127\.0\.0\.1:\d+/(.*/)?(index\.html)?$"), with_csp)  # the pages only
    pg.goto(sandbox)
    pg.wait_for_selector(f"#chart-{NAME}[data-ready='true']", timeout=15000)
    yield pg
    pg.close()


def printed(pg) -> dict[str, str]:
    return pg.evaluate(
        """name => Object.fromEntries(Array.from(document.querySelectorAll('#chart-' + name + ' [data-out]'))
            .map(e => [e.dataset.out, e.textContent]))""",
        NAME,
    )


def chart(pg) -> str:
    return pg.evaluate(
        "name => JSON.stringify(document.querySelector('#chart-' + name + ' .js-plotly-plot').data)",
        NAME,
    )


def test_defaults_print_the_results_row(page, expected):
    got = printed(page)
    row = expected["rows"]["hyena2", 2048]
    layer_major = next(r for r in expected["schedules"] if r["Schedule"] == "Layer-major")
    cells = {**row, **layer_major}
    want = {COLUMNS[c]: t for c, t in cells.items() if c in COLUMNS}
    assert len(want) == len(COLUMNS)
    assert {k: got[k] for k in want} == want
    assert page.errors == []


def test_every_row_of_the_masks_tables(page, expected):
    for (variant, length), row in expected["rows"].items():
        page.select_option(f"#{NAME}-variant", variant)
        page.check(f"#chart-{NAME} input[name='{NAME}-length'][value='{length}']")
        got = printed(page)
        want = {COLUMNS[c]: t for c, t in row.items() if c in COLUMNS}
        assert {k: got[k] for k in want} == want, row["Variant, length"]
    assert page.errors == []


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
    assert page.errors == []


def _moves(pg) -> list[tuple[str, object]]:
    """Each control moved once, from the keyboard where the control takes keys."""
    sel = f"#{NAME}-"

    def key(selector: str, k: str):
        return lambda: (pg.focus(selector), pg.keyboard.press(k))

    return [
        ("variant", lambda: pg.select_option(sel + "variant", "circ")),
        ("sequence length", key(f"#chart-{NAME} input[name='{NAME}-length']:checked", "ArrowRight")),
        ("tokens per step", key(sel + "tokens", "ArrowLeft")),
        ("GPUs", key(sel + "gpus", "ArrowRight")),
        ("TFLOP/s", key(sel + "tflops", "ArrowRight")),
        ("model-parallel degree", lambda: pg.select_option(sel + "model-parallel", "4")),
        ("schedule", key(f"#chart-{NAME} input[name='{NAME}-schedule']:checked", "ArrowRight")),
        ("microbatch", lambda: pg.select_option(sel + "microbatch", "2")),
        ("overlapped", key(sel + "overlapped", "Space")),
        ("data-by-data on the engines", key(sel + "data-on-engines", "Space")),
    ]


def test_every_control_moves_the_chart_and_the_outputs(page):
    for name, move in _moves(page):
        before_chart, before_out = chart(page), printed(page)
        move()
        after_chart, after_out = chart(page), printed(page)
        assert after_chart != before_chart, f"{name}: the chart did not change"
        assert after_out != before_out, f"{name}: no printed value changed"
    page.evaluate("window.dispatchEvent(new Event('resize'))")
    page.wait_for_timeout(100)
    assert page.errors == []


def test_controls_are_labelled_and_the_chart_is_configured(page):
    unlabelled = page.evaluate(
        """name => Array.from(document.querySelectorAll('#chart-' + name + ' input, #chart-' + name + ' select'))
            .filter(e => !(e.labels && e.labels.length)).map(e => e.id || e.name)""",
        NAME,
    )
    assert unlabelled == []
    ctx = page.evaluate(
        """name => { const c = document.querySelector('#chart-' + name + ' .js-plotly-plot')._context;
            return [c.displaylogo, c.responsive, c.displayModeBar]; }""",
        NAME,
    )
    assert ctx == [False, True, False]
    assert page.locator(f"#chart-{NAME} figcaption").count() == 1


def test_model_parallel_degrees_that_do_not_divide_the_gpus_are_offered_no_more(page):
    page.select_option(f"#{NAME}-model-parallel", "64")
    page.focus(f"#{NAME}-gpus")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")  # 64 -> 8 GPUs
    assert page.input_value(f"#{NAME}-model-parallel") == "8"
    assert printed(page)["replicas"] == "1"
    assert page.errors == []


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
    assert page.errors == []
