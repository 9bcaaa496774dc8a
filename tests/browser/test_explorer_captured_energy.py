"""The captured-energy explorer in Chromium: its defaults print the row "C, 2d 64 | momentum" of the vendored
experiment's results.md §2 (top-k 0.643, low band 0.013, …) for all four parameter groups; every run and tensor
prints its rows; every control (from the keyboard where it takes keys) changes the chart, with no console
error, CSP violation or request off the server.

The expected texts are read from the vendored results.md with the tests' own table reader.
"""

from __future__ import annotations

import pytest

from tests.browser import explorer_sandbox as sandbox
from tests.browser.cells import cells
from tests.conftest import VENDOR
from tests.explorer_rows import one

pytestmark = pytest.mark.browser

NAME = "captured_energy"
RESULTS_MD = VENDOR / "demo-fixed-band" / "tinystories-gpu" / "results.md"
SECTION = "2. Captured energy on real momentum"
RUNS = {
    "band/1d/64": "C, 1d 64",
    "band/1d/256": "C, 1d 256",
    "band/2d/64": "C, 2d 64",
    "calib/2d/64": "D, 2d 64",
    "topk/2d/64": "B, 2d 64",
}
TENSORS = ("momentum", "delta", "grad")
GROUPS = ("all", "attn", "mlp", "embed")
COLUMNS = {
    "topk": "Top-k",
    "low": "Low band",
    "zigzag": "Zig-zag",
    "high": "High band",
    "random": "Random",
    "calib": "Calibrated",
}

SET_JS = """async ([name, states]) => {
  const holder = document.getElementById('chart-' + name);
  const out = [];
  for (const [run, tensor] of states) {
    const s = holder.querySelector('#' + name + '-run');
    s.value = run;
    s.dispatchEvent(new Event('change', {bubbles: true}));
    const r = holder.querySelector(`input[name='${name}-tensor'][value='${tensor}']`);
    r.checked = true;
    r.dispatchEvent(new Event('change', {bubbles: true}));
    await new Promise((res) => requestAnimationFrame(res));
    out.push(Object.fromEntries([...holder.querySelectorAll('[data-out]')].map((e) => [e.dataset.out, e.textContent])));
  }
  return out;
}"""


def _want(table: dict, run: str, tensor: str) -> dict[str, str]:
    out = {}
    for g in GROUPS:
        for sel, col in COLUMNS.items():
            out[f"{g}.{sel}"] = one(table[(SECTION, (RUNS[run], tensor, g), col)], run, tensor, g, col)
    return out


@pytest.fixture(scope="module")
def table() -> dict[tuple[str, tuple[str, ...], str], list[str]]:
    return cells(RESULTS_MD)


page = sandbox.page_fixture(NAME)


def test_defaults_print_the_results_row(page, table) -> None:
    got = sandbox.outputs(page, NAME)
    assert got == _want(table, "band/2d/64", "momentum")
    assert (got["all.topk"], got["all.low"]) == ("0.643", "0.013")


def test_every_run_and_tensor_prints_its_rows(page, table) -> None:
    states = [[r, t] for r in RUNS for t in TENSORS]
    got = page.evaluate(SET_JS, [NAME, states])
    for (r, t), g in zip(states, got, strict=True):
        assert g == _want(table, r, t), (r, t)


def test_every_control_changes_the_chart(page) -> None:
    checked = f"#chart-{NAME} input[name='{NAME}-tensor']:checked"
    moves = [
        ("run", lambda: page.select_option(f"#{NAME}-run", "band/1d/256"), True),
        ("tensor", sandbox.press(page, checked, "ArrowRight"), True),
        ("log scale", sandbox.press(page, f"#{NAME}-log", "Space"), False),
    ]
    for sel in ("topk", "low", "zigzag", "high", "random"):
        moves.append((f"show {sel}", sandbox.press(page, f"#{NAME}-show-{sel}", "Space"), False))
    sandbox.assert_every_move_changes(page, NAME, moves)
    sandbox.resize(page)


def test_the_calibrated_selector_only_where_the_run_has_it(page) -> None:
    assert page.is_disabled(f"#{NAME}-show-calib")
    before = sandbox.chart(page, NAME)
    page.select_option(f"#{NAME}-run", "calib/2d/64")
    assert not page.is_disabled(f"#{NAME}-show-calib")
    names = page.evaluate(f"() => document.querySelector('#chart-{NAME} .js-plotly-plot').data.map((t) => t.name)")
    assert "Calibrated" in names and sandbox.chart(page, NAME) != before
    page.focus(f"#{NAME}-show-calib")
    page.keyboard.press("Space")
    # A hidden selector keeps its trace (its place in each group stays empty) but has no bars.
    for _ in range(20):  # the update in flight drawn
        bars = page.evaluate(
            f"""() => Object.fromEntries(document.querySelector('#chart-{NAME} .js-plotly-plot').data
                .map((t) => [t.name, t.y.filter((y) => y !== null).length]))"""
        )
        if not bars["Calibrated"]:
            break
        page.wait_for_timeout(50)
    assert bars["Calibrated"] == 0 and bars["Top-k"] == 4


def test_controls_are_labelled_and_the_chart_is_configured(page) -> None:
    sandbox.assert_labelled_and_configured(page, NAME)
    assert sandbox.plot_height(page, NAME) < 600
