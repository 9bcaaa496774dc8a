"""The three-trainers explorer in Chromium: its default state prints the first setting's row of the
trainers results (§2), every control (driven from the keyboard) changes the chart and the printed
values, every setting of the grid prints its own row, it sizes itself when shown, and it runs under a
strict Content-Security-Policy with no console error and no request off the server.

The page is the explorer sandbox's (tests/browser/explorer_sandbox.py: a copy of content/, templates/ and
data/ plus one page holding ``::chart[three_trainers]``). The expected texts are read from
data/trainers/results.md with the tests' own table reader, not the builder's formatter.
"""

from __future__ import annotations

import pytest

from tests.browser import explorer_sandbox as sandbox
from tests.browser.cells import cells
from tests.conftest import PROJECT
from tests.explorer_rows import one

pytestmark = pytest.mark.browser

NAME = "three_trainers"
RESULTS_MD = PROJECT / "data" / "trainers" / "results.md"
GRID = "2. Final loss on the hardware"
GRID_ROW = "Fabrication error, read-out noise"
COLUMNS = {"In silico": "insilico", "Physics-aware": "physics", "In situ": "insitu"}

PLOT_JS = f"""() => {{ const gd = document.querySelector('#chart-{NAME} .js-plotly-plot');
  return JSON.stringify(gd.data.map((t) => [t.name, t.y])); }}"""


page = sandbox.page_fixture(NAME)


def _one(table: dict, key: tuple) -> str:
    return one(table[key], key)


def _row(fab: str, noise: str) -> dict[str, str]:
    """What the explorer must print at a setting: that row of results §2, the twin's final loss and the setting."""
    t = cells(RESULTS_MD)
    label = f"{fab}, {noise}"
    want = {key: _one(t, (GRID, (label,), col)) for col, key in COLUMNS.items()}
    want["twin"] = _one(t, (GRID, ("In silico, on its own twin",), "Final loss"))
    want["fab"], want["noise"] = fab, noise
    return want


def _default() -> tuple[str, str]:
    fab, noise = _one(cells(RESULTS_MD), ("1. The model", ("Shown first",), "Values")).split(", ")
    return fab, noise


def _levels(name: str) -> list[str]:
    return _one(cells(RESULTS_MD), ("1. The model", (name,), "Values")).split(", ")


def test_default_state_prints_the_results_row(page):
    fab, noise = _default()
    assert sandbox.outputs(page, NAME) == _row(fab, noise)
    # The default is a setting with a reality gap: in silico ends highest on the hardware.
    got = sandbox.outputs(page, NAME)
    assert float(got["insilico"]) > max(float(got["physics"]), float(got["insitu"]))


def test_controls_are_labelled_keyboard_ranges(page):
    ranges = page.evaluate(
        f"""() => [...document.querySelectorAll('#chart-{NAME} input[type=range]')].map((e) => ({{
          id: e.id, labels: [...e.labels].map((l) => l.textContent), valuetext: e.getAttribute('aria-valuetext'),
          output: document.querySelector(`output[for='${{e.id}}']`).textContent}}))"""
    )
    assert [(r["id"], r["labels"]) for r in ranges] == [
        (f"{NAME}-fab", ["Fabrication error"]),
        (f"{NAME}-noise", ["Read-out noise"]),
    ]
    assert all(r["valuetext"] == r["output"] for r in ranges), ranges
    assert page.locator(f"output[for='{NAME}-fab']").is_visible()
    assert sandbox.unlabelled(page, NAME) == []
    assert page.evaluate("() => document.querySelectorAll('[onclick],[oninput],[onchange],[onload]').length") == 0


@pytest.mark.parametrize(("control", "key"), [("fab", "ArrowLeft"), ("fab", "ArrowRight"), ("noise", "ArrowRight")])
def test_every_control_changes_the_chart_and_the_values(page, control, key):
    before_plot, before = page.evaluate(PLOT_JS), sandbox.outputs(page, NAME)
    page.focus(f"#{NAME}-{control}")
    page.keyboard.press(key)
    page.wait_for_function(f"(b) => ({PLOT_JS})() !== b", arg=before_plot, timeout=5_000)
    after = sandbox.outputs(page, NAME)
    assert after[control] != before[control]
    assert after == _row(after["fab"], after["noise"])
    changed = {k for k in before if before[k] != after[k]}
    if control == "noise":  # in silico never reads the hardware: the noise cannot change its loss
        assert changed >= {"noise", "physics", "insitu"} and "insilico" not in changed
    else:
        assert changed >= {"fab", "insilico"}


def test_every_setting_of_the_grid_prints_its_row(page):
    fabs, noises = _levels("Fabrication error"), _levels("Read-out noise (of full scale)")
    seen = page.evaluate(
        f"""async ([nf, nn]) => {{
          const fab = document.getElementById('{NAME}-fab');
          const noise = document.getElementById('{NAME}-noise');
          const gd = document.querySelector('#chart-{NAME} .js-plotly-plot');
          const out = [];
          for (let i = 0; i < nf; i++) {{
            for (let j = 0; j < nn; j++) {{
              fab.value = String(i); noise.value = String(j);
              noise.dispatchEvent(new Event('input', {{bubbles: true}}));
              await new Promise((r) => requestAnimationFrame(r));
              out.push({{
                values: Object.fromEntries([...document.querySelectorAll('#chart-{NAME} [data-out]')]
                  .map((e) => [e.dataset.out, e.textContent])),
                traces: gd.data.length,
                points: gd.data.map((t) => t.y.length),
              }});
            }}
          }}
          return out;
        }}""",
        [len(fabs), len(noises)],
    )
    assert len(seen) == len(fabs) * len(noises)
    rows = iter(seen)
    for fab in fabs:
        for noise in noises:
            s = next(rows)
            assert s["values"] == _row(fab, noise)
            assert s["traces"] == 4 and len(set(s["points"])) == 1


def test_sizes_itself_when_shown(page):
    sandbox.show_at_width(page, NAME, 700)


def test_series_are_keyboard_toggles(page):
    """Each series is a checkbox beside the chart (no Plotly legend): Space hides its curve and shows it again;
    the final losses stay printed."""
    boxes = page.evaluate(
        f"""() => [...document.querySelectorAll('#chart-{NAME} fieldset.explorer-toggles input[type=checkbox]')]
          .map((e) => [e.id, e.labels[0].textContent.trim(), e.checked])"""
    )
    assert [b[1] for b in boxes] == ["In silico, on its twin", "In silico", "Physics-aware", "In situ"]
    assert all(b[2] for b in boxes)
    assert (
        page.evaluate(f"() => document.querySelector('#chart-{NAME} .js-plotly-plot')._fullLayout.showlegend") is False
    )
    before_plot, before = page.evaluate(PLOT_JS), sandbox.outputs(page, NAME)
    page.focus(f"#{NAME}-series-2")  # physics-aware
    page.keyboard.press("Space")
    page.wait_for_function(f"(b) => ({PLOT_JS})() !== b", arg=before_plot, timeout=5_000)
    points = page.evaluate(
        f"() => document.querySelector('#chart-{NAME} .js-plotly-plot').data.map((t) => [t.name, t.y.length])"
    )
    assert [n for name, n in points if name == "Physics-aware"] == [0]
    assert all(n > 0 for name, n in points if name != "Physics-aware")
    assert sandbox.outputs(page, NAME) == before
    page.keyboard.press("Space")
    page.wait_for_function(f"(b) => ({PLOT_JS})() === b", arg=before_plot, timeout=5_000)


def test_the_curves_are_drawn_when_plotly_afterplot_fires(page):
    """Every move is Charts.update's fast path (the curves alone): by the time plotly_afterplot fires, each
    drawn line ends where its new data ends, so what the benchmark times is the whole redraw."""
    seen = page.evaluate(
        f"""async () => {{
          const gd = document.querySelector('#chart-{NAME} .js-plotly-plot');
          const out = [];
          for (const id of ['{NAME}-fab', '{NAME}-noise', '{NAME}-fab']) {{
            const e = document.getElementById(id);
            out.push(await new Promise((resolve) => {{
              function done() {{
                gd.removeListener('plotly_afterplot', done);
                const ya = gd._fullLayout.yaxis, xa = gd._fullLayout.xaxis;
                resolve(gd.data.map((t, i) => {{
                  const d = gd.querySelectorAll('.scatterlayer .trace')[i].querySelector('path.js-line')
                    .getAttribute('d');
                  const last = d.split(/[ML]/).filter(Boolean).pop().split(',').map(Number);
                  const n = t.y.length - 1;
                  return [last, [xa.c2p(t.x[n]), ya.c2p(t.y[n])]];
                }}));
              }}
              gd.on('plotly_afterplot', done);
              if (e.value === e.max) e.stepDown(); else e.stepUp();
              e.dispatchEvent(new Event('input', {{bubbles: true}}));
            }}));
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          }}
          return out;
        }}"""
    )
    for move in seen:
        for drawn, want in move:
            assert drawn == pytest.approx(want, abs=0.6)
