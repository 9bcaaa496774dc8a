"""The link-kernel explorer in Chromium: its defaults print the link-kernel rows of the simulation results (31.67 ms,
95.0%, binds until 140.0 GFLOP/s), every budget and placement prints its rows of §2, §3 and §6 and every plane
count its row of §8, every control moves the chart and the printed values, and nothing logs an error, under a
Content-Security-Policy without inline scripts.

The page is built in a sandbox project (this project's content, templates and data, plus one page holding only
the chart). The expected texts come from results.md through this file's own table reader, not from the builder.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from collections.abc import Iterator

import pytest

from site_builder.build import Options, build
from tests.browser.conftest import QuietHandler
from tests.conftest import PROJECT, REFERENCE, VENDOR

pytestmark = pytest.mark.browser

NAME = "link_kernel"
CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"
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


def tables(md: str, number: str) -> list[list[dict[str, str]]]:
    """The tables of section ``number`` of a results.md, each a list of {column: cell text} rows."""
    out: list[list[dict[str, str]]] = []
    inside, header = False, None
    for line in md.splitlines():
        if line.startswith("## "):
            inside, header = line.startswith(f"## {number}. "), None
            continue
        if not inside or not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            out.append([])
        elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
            out[-1].append(dict(zip(header, cells, strict=True)))
    return out


@pytest.fixture(scope="module")
def expected() -> dict:
    md = (PROJECT / "data" / "simulation" / "results.md").read_text(encoding="utf-8")
    s2 = tables(md, "2")
    s3 = tables(md, "3")
    return {
        "times": {r["Variant"]: r[HOME] for r in s2[0]},
        "steps": {r["Variant"].removesuffix(", step"): r[HOME] for r in s2[1]},
        "stages": {r["Budget"]: r for r in s3[0]},
        "stops": next(r["Value"] for r in s3[1] if r["Quantity"].startswith("Budget above which")),
        "hot": {r["Variant"]: r for r in tables(md, "6")[0]},
        "planes": {int(r["Planes"].split()[0]): r for r in tables(md, "8")[0]},
    }


def row_label(rows: dict, variant: str, budget: str) -> str:
    """The results row of E ('E band …') or E′ ('E′ band …') at a budget."""
    name = "E′" if variant == "Ep" else "E"
    return next(k for k in rows if k.startswith(name + " ") and f"[{budget}]" in k)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp(NAME)
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
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
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
        """name => { const gd = document.querySelector('#chart-' + name + ' .js-plotly-plot');
            return JSON.stringify([gd.data, gd.layout.xaxis.range]); }""",
        NAME,
    )


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
    assert page.errors == []


def test_every_budget_and_placement_prints_its_rows(page, expected):
    for variant in ("E", "Ep"):
        for budget in ("low", "high", "free"):
            choose(page, variant, budget)
            got = printed(page)
            want = rows_of(expected, variant, budget)
            assert {k: got[k] for k in want} == want, (variant, budget)
    assert page.errors == []


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
    assert page.errors == []


def test_every_control_moves_the_chart_and_the_outputs(page):
    sel = f"#{NAME}-"

    def key(selector: str, k: str):
        return lambda: (page.focus(selector), page.keyboard.press(k))

    moves = [
        ("where the module sits", lambda: page.select_option(sel + "variant", "Ep")),
        ("budget", key(f"#chart-{NAME} input[name='{NAME}-budget']:checked", "ArrowRight")),
        ("bit planes", key(sel + "planes", "ArrowLeft")),
        ("FPGA rate", key(sel + "fpga", "Home")),
    ]
    for name, move in moves:
        before_chart, before_out = chart(page), printed(page)
        move()
        after_chart, after_out = chart(page), printed(page)
        assert after_chart != before_chart, f"{name}: the chart did not change"
        assert after_out != before_out, f"{name}: no printed value changed"
    assert printed(page)["binding"] == "fpga" and printed(page)["hot_module_fpga"] != "·"
    page.evaluate("window.dispatchEvent(new Event('resize'))")
    page.wait_for_timeout(100)
    assert page.errors == []


def test_controls_are_labelled_show_their_values_and_the_chart_is_configured(page):
    unlabelled = page.evaluate(
        """name => Array.from(document.querySelectorAll('#chart-' + name + ' input, #chart-' + name + ' select'))
            .filter(e => !(e.labels && e.labels.length)).map(e => e.id || e.name)""",
        NAME,
    )
    assert unlabelled == []
    assert page.text_content(f"#{NAME}-planes-value") == "8"
    assert page.text_content(f"#{NAME}-fpga-value") == "20 G values/s"
    ctx = page.evaluate(
        """name => { const c = document.querySelector('#chart-' + name + ' .js-plotly-plot')._context;
            return [c.displaylogo, c.responsive, c.displayModeBar]; }""",
        NAME,
    )
    assert ctx == [False, True, False]
    assert page.locator(f"#chart-{NAME} figcaption").count() == 1
    height = page.evaluate("name => document.getElementById('chart-' + name).getBoundingClientRect().height", NAME)
    assert height < 700


def segments(pg) -> dict[str, float | None]:
    """The step's bar as drawn: resource -> its segment's length in ms (None: no segment)."""
    return pg.evaluate(
        """name => { const gd = document.querySelector('#chart-' + name + ' .js-plotly-plot');
            const t = gd.data.find((t) => t.yaxis === 'y2');
            return Object.fromEntries(t.hovertext.map((r, i) => [r, t.x[i]])); }""",
        NAME,
    )


def settled(pg, want=None):
    """The chart as drawn once the update in flight is done (Charts.update draws the latest update last): polled
    until two reads a frame apart agree (and equal ``want`` when given)."""
    last = None
    for _ in range(100):
        pg.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))")
        now = segments(pg)
        if now == last and (want is None or now == want):
            return now
        last = now
    return last


def test_the_parts_of_the_step_are_checkboxes_operated_from_the_keyboard(page):
    boxes = page.evaluate(
        """name => Array.from(document.querySelectorAll('#chart-' + name + ' .explorer-toggles input'))
            .map((b) => [b.id, b.type, b.labels[0].textContent.trim(), b.checked, b.tabIndex])""",
        NAME,
    )
    assert [b[2] for b in boxes] == list(RESOURCES)
    assert all(b[1] == "checkbox" and b[3] and b[4] == 0 for b in boxes)
    # The next stop of the Tab key after the last setting is the first part's checkbox.
    page.focus(f"#{NAME}-fpga")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == boxes[0][0]

    full, values = settled(page), printed(page)
    assert full["module compute"] and full["module optics"] is None  # [low]: the transform binds
    for box_id, resource, *_ in ((b[0], b[2]) for b in boxes):
        page.focus(f"#{box_id}")
        page.keyboard.press("Space")
        assert not page.is_checked(f"#{box_id}")
        got = settled(page)
        assert got[resource] is None, resource
        assert {r: v for r, v in got.items() if r != resource} == {r: v for r, v in full.items() if r != resource}
        page.keyboard.press("Space")
        assert page.is_checked(f"#{box_id}") and settled(page, full) == full
    # Hidden parts stay hidden when a setting moves; the printed values do not depend on them.
    page.focus(f"#{NAME}-show-4")
    page.keyboard.press("Space")
    page.select_option(f"#{NAME}-variant", "Ep")
    got = settled(page)
    assert got["module compute"] is None and got["GPU compute"] and got != full
    page.select_option(f"#{NAME}-variant", "E")
    assert printed(page) == values
    assert page.errors == []
