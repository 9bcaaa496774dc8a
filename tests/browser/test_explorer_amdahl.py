"""The training-step Amdahl explorer in Chromium: its default state prints results §2's named row, every
control (driven from the keyboard) changes the chart and the printed values, it sizes itself when shown,
and it runs under a strict Content-Security-Policy with no console error and no request off the server.

The page is the explorer sandbox's (tests/browser/explorer_sandbox.py: a copy of content/, templates/ and
data/ plus one page holding ``::chart[amdahl]``). The expected texts are read from data/analysis/results.md with the tests' own
table reader, not the builder's formatter.
"""

from __future__ import annotations

import itertools
import re

import pytest

from tests.browser import explorer_sandbox as sandbox
from tests.browser.cells import cells
from tests.conftest import PROJECT
from tests.explorer_rows import one

pytestmark = pytest.mark.browser

RESULTS_MD = PROJECT / "data" / "analysis" / "results.md"
ROW = "Block-circulant, 4,096"  # issue 9: the default state is this row of results §2
SHARE_COLUMNS = {
    "Forward": "forward",
    "Backward": "backward",
    "Step": "step",
    "Static": "static",
    "Data-by-data part": "data_part",
    "Bound (step)": "bound_optical",
    "Bound (static)": "bound_static",
    "Backward / forward": "backward_over_forward",
}
LEDGER_COLUMNS = {"Step, GFLOP/token": "step_gflop_per_token"}
MASK_COLUMNS = {
    "Mask values per pass": "weight_values",
    "Frames, forward (H)": "frames_forward",
    "Frames, backward (conj H)": "frames_backward",
    "Weight masks": "weight_seconds",
    "Digital step": "digital_seconds",
    "Masks / step": "mask_over_step",
}
PLOT_JS = """() => { const gd = document.querySelector('#chart-amdahl .js-plotly-plot');
  return JSON.stringify(gd.data.map((t) => [t.name, t.x, t.y, t.customdata])); }"""


page = sandbox.page_fixture("amdahl")


def _results_row() -> dict[str, str]:
    """The named row's cells (§2 shares, §2 ledger, §4 masks), keyed by the explorer's output names."""
    t = cells(RESULTS_MD)
    want: dict[str, str] = {}
    for section, columns in (
        ("2. A training step", SHARE_COLUMNS | LEDGER_COLUMNS),
        ("4. Holding the masks", MASK_COLUMNS),
    ):
        for col, key in columns.items():
            want[key] = one(t[(section, (ROW,), col)], section, col)
    m = re.search(r"at ([\d,]+) tokens per optimizer step", RESULTS_MD.read_text(encoding="utf-8"))
    assert m, "results §2 names its step"
    want["step_tokens"] = m.group(1)
    return want


def test_default_state_prints_the_results_row(page):
    want = _results_row()
    got = sandbox.outputs(page, "amdahl")
    assert {k: got.get(k) for k in want} == want
    # The figures, as the reader sees them on the page.
    shown = [got[k] for k in ("forward", "backward", "step", "static", "data_part", "bound_optical", "bound_static")]
    assert shown == [
        want[k] for k in ("forward", "backward", "step", "static", "data_part", "bound_optical", "bound_static")
    ]
    assert page.locator("#amdahl-variant").input_value() == "circ"
    assert page.locator("input[name='amdahl-length']:checked").input_value() == "4096"


def test_controls_are_labelled_form_controls(page):
    info = page.evaluate(
        """() => [...document.querySelectorAll('#chart-amdahl select, #chart-amdahl input')].map((e) => ({
          tag: e.tagName, type: e.type, labels: e.labels.length,
          legend: !!(e.closest('fieldset') && e.closest('fieldset').querySelector('legend'))}))"""
    )
    assert {i["tag"] + ":" + i["type"] for i in info} == {
        "SELECT:select-one",
        "INPUT:radio",
        "INPUT:range",
        "INPUT:checkbox",
    }
    assert all(i["labels"] >= 1 for i in info), info
    assert all(i["legend"] for i in info if i["type"] in ("radio", "checkbox"))
    rng = page.locator("#amdahl-tokens")
    assert page.locator("output[for='amdahl-tokens']").is_visible()
    assert rng.get_attribute("aria-valuetext") == page.locator("output[for='amdahl-tokens']").inner_text() + " tokens"
    assert page.evaluate("() => document.querySelectorAll('[onclick],[oninput],[onchange],[onload]').length") == 0


def _move(page, control: str) -> None:
    """Move one control from the keyboard."""
    if control == "variant":
        page.focus("#amdahl-variant")
        page.keyboard.press("ArrowUp")
    elif control == "length":
        page.focus("input[name='amdahl-length']:checked")
        page.keyboard.press("ArrowRight")
    else:
        page.focus("#amdahl-tokens")
        page.keyboard.press("ArrowRight")


@pytest.mark.parametrize("control", ["variant", "length", "tokens"])
def test_every_control_changes_the_chart_and_the_values(page, control):
    before_plot, before = page.evaluate(PLOT_JS), sandbox.outputs(page, "amdahl")
    _move(page, control)
    page.wait_for_function(f"(b) => ({PLOT_JS})() !== b", arg=before_plot, timeout=5_000)
    after = sandbox.outputs(page, "amdahl")
    changed = sorted(k for k in before if before[k] != after[k])
    assert changed, f"moving {control} changed no printed value"
    if control == "tokens":
        # The seed's point: a bigger step leaves the weight-mask frames as they are and lengthens the
        # digital step; the shares barely move (once-per-step transforms are amortised a little more).
        assert after["step_tokens"] != before["step_tokens"]
        assert after["frames_forward"] == before["frames_forward"]
        assert after["digital_seconds"] != before["digital_seconds"]
    if control == "variant":
        assert page.locator("#amdahl-variant").input_value() != "circ"
    if control == "length":
        assert page.locator("input[name='amdahl-length']:checked").input_value() != "4096"


def test_every_control_position_draws(page):
    """Every variant, length and step the controls offer computes and draws without an error."""
    n = page.evaluate(
        """async () => {
          const sel = document.getElementById('amdahl-variant');
          const radios = [...document.querySelectorAll("input[name='amdahl-length']")];
          const rng = document.getElementById('amdahl-tokens');
          let n = 0;
          for (const o of sel.options) {
            sel.value = o.value; sel.dispatchEvent(new Event('change', {bubbles: true}));
            for (const r of radios) {
              r.checked = true; r.dispatchEvent(new Event('change', {bubbles: true}));
              for (let i = Number(rng.min); i <= Number(rng.max); i++) {
                rng.value = String(i); rng.dispatchEvent(new Event('input', {bubbles: true}));
                n++;
              }
            }
          }
          return n;
        }"""
    )
    assert n == 4 * 4 * 10
    out = sandbox.outputs(page, "amdahl")
    assert all(v and "NaN" not in v and "Infinity" not in v for v in out.values()), out


def test_sizes_itself_when_shown(page):
    sandbox.show_at_width(page, "amdahl", 700)


def test_op_classes_are_keyboard_toggles(page):
    """The legend's op classes are checkboxes: Space hides a class's segments (the others close up), in the
    chart and in its data table, and shows them again."""
    boxes = page.locator("#chart-amdahl fieldset.explorer-toggles input[type=checkbox]")
    assert boxes.count() == 4
    assert page.locator("#chart-amdahl fieldset.explorer-toggles legend").inner_text() == "Op classes shown"
    before = page.evaluate(PLOT_JS)
    page.focus("#amdahl-class-1")  # transforms
    page.keyboard.press("Space")
    assert not page.is_checked("#amdahl-class-1")
    page.wait_for_function(f"(b) => ({PLOT_JS})() !== b", arg=before, timeout=5_000)
    trace = page.evaluate(
        "() => { const t = document.querySelector('#chart-amdahl .js-plotly-plot').data[0];"
        " return {y: t.y, base: t.base, names: t.hovertext}; }"
    )
    for i, name in enumerate(trace["names"]):
        if name.startswith("Transforms"):
            assert trace["y"][i] is None
    for p in range(3):  # each pass's segments stack from 0 without the hidden one
        top = 0.0
        for i in range(4 * p, 4 * p + 4):
            if trace["y"][i] is not None:
                assert trace["base"][i] == pytest.approx(top)
                top += trace["y"][i]
    page.click("#chart-amdahl .chart-data-toggle")
    rows = page.locator("#chart-amdahl .chart-data td").all_inner_texts()
    assert "Transforms (FFTs)" not in rows and "Digital (matmuls, attention, other)" in rows
    page.focus("#amdahl-class-1")
    page.keyboard.press("Space")
    assert page.is_checked("#amdahl-class-1")
    page.wait_for_function(f"(b) => ({PLOT_JS})() === b", arg=before, timeout=5_000)


REDRAWS_JS = """async (moves) => {
  const gd = document.querySelector('#chart-amdahl .js-plotly-plot');
  const out = [];
  for (const sel of moves) {
    const e = document.querySelector(sel);
    out.push(await new Promise((resolve) => {
      function done() {
        gd.removeListener('plotly_afterplot', done);
        const ya = gd._fullLayout.yaxis;
        resolve({range: ya.range.slice(), wanted: gd.layout.yaxis.range.slice(), h: ya._length,
          y: gd.data[0].y.slice(), base: gd.data[0].base.slice(),
          paths: [...gd.querySelectorAll('.barlayer .point path')].map((p) => p.getAttribute('d')),
          ticks: [...gd.querySelectorAll('.ytick text')].map((t) => Number(t.textContent))});
      }
      gd.on('plotly_afterplot', done);
      if (e.type === 'checkbox') e.click();
      else if (e.tagName === 'SELECT') {
        e.selectedIndex = (e.selectedIndex + 1) % e.options.length; e.dispatchEvent(new Event('change', {bubbles: true}));
      } else { e.stepUp(); e.dispatchEvent(new Event('input', {bubbles: true})); }
    }));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  }
  return out;
}"""


def test_the_chart_is_drawn_when_plotly_afterplot_fires(page):
    """Charts.update's fast path (traces only, and the y axis when its range moves) has drawn the new bars on
    the new axis by the time plotly_afterplot fires: what the benchmark times is the whole redraw."""
    moves = ["#amdahl-tokens", "#amdahl-class-0", "#amdahl-tokens", "#amdahl-variant", "#amdahl-class-0"]
    moves += ["#amdahl-tokens"] * 3
    moves += ["#amdahl-class-3", "#amdahl-class-3"]
    seen = page.evaluate(REDRAWS_JS, moves)
    moved = [a["range"] != b["range"] for a, b in itertools.pairwise(seen)]
    assert any(moved) and not all(moved)  # redraws with the y axis and without
    for s in seen:
        assert s["range"] == s["wanted"] and s["range"][0] == 0
        assert max(s["ticks"]) <= s["range"][1] + 1e-9
        assert len(s["paths"]) == 12
        for y, d in zip(s["y"], s["paths"], strict=True):
            m = re.fullmatch(r"M[\d.]+,([\d.]+)V([\d.]+)H[\d.]+V[\d.]+Z", d)
            assert m, d
            drawn = abs(float(m.group(1)) - float(m.group(2)))
            assert drawn == pytest.approx((y or 0) / s["range"][1] * s["h"], abs=0.05)
