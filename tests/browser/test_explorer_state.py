"""Every explorer's state in the URL, its reset and its CSV, in Chromium (static/js/explorer_state.js).

For each explorer of the sandbox (tests/browser/explorer_sandbox.py): random settings of its controls, made as a
reader makes them (each control's own event), are written to the URL; the URL opened again shows the same
settings and draws the same traces. "Reset" brings back the defaults and a URL without the explorer's
parameters; a stale or invented value in the URL is left out without an error; the CSV download is the traces
the chart shows, point by point. Break-even's slider starts at its state's bandwidth. The CSV rows of points
that are registered figures at the explorer's settings carry the figure's key, text and source cell, and hold its
value; at settings no figure was computed for, those rows carry none (captured energy, break-even, step/mask, the
three trainers, the link kernel, transit and the loss curves; Amdahl's bars are PFLOP per step, which no figure is).
"""

from __future__ import annotations

import csv
import io
import math
import random
import re

import pytest

from site_builder.explorers import EXPLORERS
from tests.browser import explorer_sandbox as sandbox

pytestmark = pytest.mark.browser

NAMES = tuple(EXPLORERS)

CONTROLS_JS = """name => {
  const fig = document.getElementById('chart-' + name);
  const out = [];
  const seen = new Set();
  fig.querySelectorAll('select, input, button[aria-pressed]').forEach((e) => {
    if (e.type === 'radio') {
      if (seen.has(e.name)) return;
      seen.add(e.name);
      out.push({kind: 'radio', sel: `input[type=radio][name="${e.name}"]`,
                values: [...fig.querySelectorAll(`input[type=radio][name="${e.name}"]`)].map((r) => r.value)});
    } else if (e.tagName === 'BUTTON') {
      out.push({kind: 'button', sel: '#' + CSS.escape(e.id)});
    } else if (e.tagName === 'SELECT') {
      out.push({kind: 'select', sel: '#' + CSS.escape(e.id), values: [...e.options].map((o) => o.value)});
    } else if (e.type === 'checkbox') {
      out.push({kind: 'checkbox', sel: '#' + CSS.escape(e.id)});
    } else if (e.type === 'range') {
      out.push({kind: 'range', sel: '#' + CSS.escape(e.id),
                n: Math.round((Number(e.max) - Number(e.min)) / Number(e.step))});
    }
  });
  return out;
}"""

MOVE_JS = """([c, v]) => {
  const all = [...document.querySelectorAll(c.sel)];
  let e = all[0], type = 'change';
  if (c.kind === 'radio') { e = all.find((r) => r.value === v); e.checked = true; }
  else if (c.kind === 'select') e.value = v;
  else if (c.kind === 'checkbox') e.checked = !e.checked;
  else if (c.kind === 'button') { e.click(); return; }
  else if (c.kind === 'range') { e.value = String(Number(e.min) + v * Number(e.step)); type = 'input'; }
  e.dispatchEvent(new Event(type, {bubbles: true}));
}"""

STATE_JS = """name => {
  const fig = document.getElementById('chart-' + name);
  const out = {};
  fig.querySelectorAll('select, input, button[aria-pressed]').forEach((e) => {
    const k = e.id || e.name;
    if (e.tagName === 'BUTTON') out[k] = e.getAttribute('aria-pressed');
    else if (e.type === 'radio' || e.type === 'checkbox') out[k + '=' + e.value] = e.checked;
    else out[k] = e.value;
  });
  return out;
}"""

TRACES_JS = """name => { const gd = document.querySelector('#chart-' + name + ' .js-plotly-plot');
  return JSON.stringify([gd.data.map((t) => [t.name, t.x, t.y, t.base, t.visible]), gd.layout.xaxis.range,
                         gd.layout.yaxis.range, gd.layout.xaxis.title]); }"""


def shown(pg, name: str) -> tuple[dict, str]:
    """The controls' values and the drawn traces, once the update in flight is drawn."""
    traces = sandbox.settled(pg, lambda p: p.evaluate(TRACES_JS, name))
    return pg.evaluate(STATE_JS, name), traces


def ours(url: str, name: str) -> list[str]:
    query = url.split("?", 1)[1].split("#", 1)[0] if "?" in url else ""
    return [p for p in query.split("&") if p.startswith(name + ".")]


def randomise(pg, name: str, rng: random.Random, moves: int = 14) -> None:
    controls = pg.evaluate(CONTROLS_JS, name)
    for _ in range(moves):
        c = rng.choice(controls)
        if c["kind"] in ("radio", "select"):
            values = [v for v in c["values"] if v != ""] or c["values"]
            v = rng.choice(values)
        elif c["kind"] == "range":
            v = rng.randint(0, c["n"])
        else:
            v = None
        pg.evaluate(MOVE_JS, [c, v])
    pg.evaluate("() => window.ExplorerState.write()")


def reopen(pg, url: str, name: str) -> None:
    pg.goto(url)
    pg.wait_for_selector(f"#chart-{name}[data-state='ready']", timeout=30_000)


@pytest.fixture
def page(request, browser, explorer_origin):
    yield from sandbox.open_chart(browser, explorer_origin, request.param, sandbox.WIDE)


@pytest.mark.parametrize("page", NAMES, indirect=True)
def test_random_states_round_trip_through_the_url(page):
    name = page.url.rstrip("/").rsplit("x-", 1)[1]
    page.wait_for_selector(f"#chart-{name}[data-state='ready']")
    default = shown(page, name)
    rng = random.Random(f"state {name}")
    moved = 0
    for _ in range(4):
        randomise(page, name, rng)
        before = shown(page, name)
        url = page.url
        moved += before != default
        assert (ours(url, name) == []) == (before[0] == default[0]), url
        reopen(page, url, name)
        assert page.url == url
        assert shown(page, name) == before, url
    assert moved >= 3
    assert page.problems == []


@pytest.mark.parametrize("page", NAMES, indirect=True)
def test_reset_restores_the_defaults_and_clears_the_url(page):
    name = page.url.rstrip("/").rsplit("x-", 1)[1]
    page.wait_for_selector(f"#chart-{name}[data-state='ready']")
    default = shown(page, name)
    randomise(page, name, random.Random(f"reset {name}"))
    assert ours(page.url, name)
    reopen(page, page.url + "#somewhere", name)
    page.click(f"#chart-{name} .explorer-reset")
    assert shown(page, name) == default
    assert ours(page.url, name) == [] and page.url.endswith("#somewhere")
    assert page.problems == []


@pytest.mark.parametrize("page", NAMES, indirect=True)
def test_stale_values_in_the_url_are_left_out(page):
    name = page.url.rstrip("/").rsplit("x-", 1)[1]
    page.wait_for_selector(f"#chart-{name}[data-state='ready']")
    default = shown(page, name)
    keys = page.evaluate(
        """name => [...document.querySelectorAll('#chart-' + name + ' select[id], #chart-' + name + ' input')]
            .map((e) => (e.type === 'radio' ? e.name : e.id).replace(name + '-', ''))""",
        name,
    )
    junk = "&".join(f"{name}.{k}=%3Cnot%20a%20value%3E" for k in dict.fromkeys(keys))
    reopen(page, page.url.split("?")[0] + f"?present&{junk}&{name}.nothing=1&other=2", name)
    assert shown(page, name) == default
    assert "present" in page.url and "other=2" in page.url and ours(page.url, name) == []
    assert page.problems == []


@pytest.mark.parametrize("page", NAMES, indirect=True)
def test_the_csv_is_the_points_the_chart_shows(page):
    name = page.url.rstrip("/").rsplit("x-", 1)[1]
    page.wait_for_selector(f"#chart-{name}[data-state='ready']")
    randomise(page, name, random.Random(f"csv {name}"), moves=6)
    shown(page, name)
    with page.expect_download() as info:
        page.click(f"#chart-{name} .chart-csv")
    download = info.value
    assert download.suggested_filename == f"{name}.csv"
    with open(download.path(), encoding="utf-8", newline="") as f:
        rows = list(csv.reader(io.StringIO(f.read())))
    want = page.evaluate(
        """name => { const gd = document.querySelector('#chart-' + name + ' .js-plotly-plot');
          const rows = [];
          gd.data.forEach((t, i) => {
            if (t.visible === false || t.hoverinfo === 'skip') return;
            const h = t.orientation === 'h', val = h ? t.x : t.y, cat = h ? t.y : t.x;
            if (!val || !val.length || [...val].every((v) => v === null)) return;
            [...val].forEach((v, j) => {
              if (v === null || v === undefined) return;
              const c = cat ? cat[j] : j + 1;
              rows.push([t.name || 'Series ' + (i + 1), h ? v : c, h ? c : v]);
            });
          });
          return rows; }""",
        name,
    )
    head, body = rows[0], rows[1:]
    assert head[:3] == ["series", "x", "y"]
    assert len(body) == len(want) > 0
    for got, w in zip(body, want, strict=True):
        assert got[0] == w[0]
        for g, v in zip(got[1:3], w[1:], strict=True):
            if isinstance(v, (int, float)):
                assert float(g) == v
            else:  # a category, as the data table prints it (markup as spaces)
                assert g == re.sub(r"<[^>]*>", "", re.sub(r"<br\s*/?>", " ", str(v)))
    assert page.problems == []


@pytest.mark.parametrize("page", ["breakeven"], indirect=True)
def test_breakeven_slider_starts_at_its_state(page):
    page.wait_for_selector("#chart-breakeven[data-state='ready']")
    assert sandbox.outputs(page, "breakeven")["bandwidth"] == "12.50 GB/s"
    value = float(page.input_value("#breakeven-bandwidth"))
    assert math.isclose(10**value, 12.5, rel_tol=1e-12)
    page.select_option("#breakeven-point", "p:2dc4.25gbe")
    assert math.isclose(10 ** float(page.input_value("#breakeven-bandwidth")), 3.125, rel_tol=1e-12)
    assert page.problems == []


def downloaded_rows(pg, name: str) -> list[dict[str, str]]:
    # a reader's click (the pointer comes to the button first, which fetches figures.json: later downloads are saved in
    # the click's own task, so Chromium does not block them as automatic downloads)
    with pg.expect_download() as info:
        pg.click(f"#chart-{name} .chart-csv")
    with open(info.value.path(), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(io.StringIO(f.read())))


@pytest.mark.parametrize("page", ["captured_energy", "breakeven"], indirect=True)
def test_points_that_are_figures_carry_their_key_and_source_cell(page):
    """Each CSV row keyed as a figure holds that figure's value (figures.json), with its text and source cell."""
    name = page.url.rstrip("/").rsplit("x-", 1)[1]
    page.wait_for_selector(f"#chart-{name}[data-state='ready']")
    figures = page.evaluate(
        "() => fetch('../figures.json').then((r) => r.json()).then((j) => Object.fromEntries(j.figures.map((f) => [f.key, f])))"
    )
    keyed = 0
    for budget in ("free", "low", "high") if name == "breakeven" else ("",):
        if budget:
            page.check(f"#breakeven-budget-{budget}")
        shown(page, name)
        for row in downloaded_rows(page, name):
            if not row["figure"]:
                continue
            f = figures[row["figure"]]
            assert math.isclose(float(row["y"]), f["value"], rel_tol=1e-12), row
            assert row["figure text"] == f["text"]
            src = f["source"]
            assert row["source"] == f"{src['file']} § {src['section']} › {' / '.join(src['row'])} › {src['column']}"
            keyed += 1
    assert keyed >= (18 if name == "breakeven" else 20)
    page.check(f"#{name}-mean") if name == "breakeven" else page.click(f"#{name}-log")
    shown(page, name)
    rows = downloaded_rows(page, name)
    assert rows and all(r.get("figure") for r in rows if r["series"] != "Keep fraction") == (name != "breakeven")
    assert page.problems == []


# Where a keyed row's number is and its unit against its figure's (figure's value = the number × the factor): the link
# kernel's bars are horizontal, stage rates in G values/s and the step in ms; transit's segments are horizontal, in ms
# per step; a loss-curves mark sits at its steps (x), a curve's last point at its loss (y).
PLACES = {
    "link_kernel": lambda series: ("x", 1e-3 if series == "The step, ms" else 1e9),
    "transit": lambda series: ("x", 1e-3),
    "loss_curves": lambda series: ("x", 1.0) if series == "first reaches the target" else ("y", 1.0),
}


def keyed(pg, name: str, figures: dict) -> list[str]:
    """The CSV's figure keys at the current state (its data table shown first), each row checked."""
    shown(pg, name)
    return keyed_rows(pg, name, figures)


CSV_TEXT = """(name) => fetch('../figures.json').then((r) => r.json()).then((j) => {
  const byKey = Object.fromEntries(j.figures.map((f) => [f.key, f]));
  return ExplorerState.csv(document.getElementById('chart-' + name), byKey);
})"""


def keyed_rows(pg, name: str, figures: dict) -> list[str]:
    """The CSV's keyed rows, each checked against figures.json (value, text and source cell): their keys. The text is
    the one the "Download CSV" button saves (ExplorerState.csv, with the site's figures.json), read in the page:
    test_the_csv_is_the_points_the_chart_shows downloads it through the button."""
    keys = []
    for row in csv.DictReader(io.StringIO(pg.evaluate(CSV_TEXT, name))):
        if not row.get("figure"):
            continue
        f = figures[row["figure"]]
        column, factor = PLACES.get(name, lambda series: ("y", 1.0))(row["series"])
        assert math.isclose(float(row[column]) * factor, f["value"], rel_tol=1e-12), row
        assert row["figure text"] == f["text"]
        src = f["source"]
        assert row["source"] == f"{src['file']} § {src['section']} › {' / '.join(src['row'])} › {src['column']}"
        keys.append(row["figure"])
    return keys


def registry(pg) -> dict:
    return pg.evaluate(
        "() => fetch('../figures.json').then((r) => r.json()).then((j) => Object.fromEntries(j.figures.map((f) => [f.key, f])))"
    )


def slide(pg, sel: str, index: int) -> None:
    pg.evaluate(
        "([sel, i]) => { const e = document.querySelector(sel); e.value = String(i);"
        " e.dispatchEvent(new Event('input', {bubbles: true})); }",
        [sel, index],
    )


@pytest.mark.parametrize("page", ["step_mask"], indirect=True)
def test_step_mask_bars_that_are_figures_carry_their_key(page):
    """At the settings of results §4, every variant and length: the digital step, the data-by-data bar and the mask
    time added are that row's figures; at a schedule row's settings the mask time is the schedule's; elsewhere none."""
    name = "step_mask"
    page.wait_for_selector(f"#chart-{name}[data-state='ready']")
    figures = registry(page)
    shown(page, name)
    default = keyed_rows(page, name, figures)
    assert sorted(default) == [
        "ana.masks.hyena2.2048.data_seconds_per_engine",
        "ana.masks.hyena2.2048.digital_seconds",
        "ana.masks.hyena2.2048.weight_seconds",
    ]
    variants = page.eval_on_selector_all("#step_mask-variant option", "os => os.map((o) => o.value)")
    lengths = page.eval_on_selector_all("input[name='step_mask-length']", "rs => rs.map((r) => r.value)")
    assert len(variants) * len(lengths) > 1
    for v in variants:
        page.select_option("#step_mask-variant", v)
        for n in lengths:
            page.check(f"input[name='step_mask-length'][value='{n}']")
            shown(page, name)
            row = f"ana.masks.{v}.{n}"
            assert sorted(keyed_rows(page, name, figures)) == [
                f"{row}.data_seconds_per_engine",
                f"{row}.digital_seconds",
                f"{row}.weight_seconds",
            ]
    page.select_option("#step_mask-variant", "hyena2")
    page.check("input[name='step_mask-length'][value='2048']")
    page.check("input[name='step_mask-schedule'][value='sequence-major']")
    page.select_option("#step_mask-microbatch", "4")
    shown(page, name)
    assert keyed_rows(page, name, figures) == ["ana.masks.schedule.seq_major_m4.weight_seconds"]
    page.select_option("#step_mask-microbatch", "16")  # no schedule row at this microbatch
    shown(page, name)
    assert keyed_rows(page, name, figures) == []
    page.check("input[name='step_mask-schedule'][value='layer-major']")
    page.select_option("#step_mask-model-parallel", "32")
    shown(page, name)
    assert keyed_rows(page, name, figures) == ["ana.masks.schedule.layer_major_mp32.weight_seconds"]
    page.select_option("#step_mask-model-parallel", "1")
    page.check("#step_mask-overlapped")  # the mask time is then what the step waits for beyond the digital work
    shown(page, name)
    assert sorted(keyed_rows(page, name, figures)) == [
        "ana.masks.hyena2.2048.data_seconds_per_engine",
        "ana.masks.hyena2.2048.digital_seconds",
    ]
    page.uncheck("#step_mask-overlapped")
    slide(page, "#step_mask-tokens", int(page.input_value("#step_mask-tokens")) + 1)
    shown(page, name)
    rows = downloaded_rows(page, name)
    assert rows and not any(r.get("figure") for r in rows)
    assert page.problems == []


@pytest.mark.parametrize("page", ["three_trainers"], indirect=True)
def test_three_trainers_curve_points_that_are_figures_carry_their_key(page):
    """At the first setting each curve's points at the steps of results §3 are its figures; elsewhere only the
    twin's curve, the same at every setting, keeps its keys."""
    name = "three_trainers"
    page.wait_for_selector(f"#chart-{name}[data-state='ready']")
    figures = registry(page)
    shown(page, name)
    curve = sorted(k for k in figures if k.startswith("trn.curve."))
    assert sorted(keyed_rows(page, name, figures)) == curve
    assert len(curve) >= 28
    twin = [k for k in curve if k.endswith(".twin")]
    fab = int(page.input_value("#three_trainers-fab"))
    slide(page, "#three_trainers-fab", fab - 1 if fab else fab + 1)
    shown(page, name)
    assert sorted(keyed_rows(page, name, figures)) == twin


def move(pg, selector: str, value: str) -> None:
    """A range or select moved as a reader moves it (its own event)."""
    pg.evaluate(
        """([sel, v]) => { const e = document.querySelector(sel); e.value = v;
          e.dispatchEvent(new Event(e.type === 'range' ? 'input' : 'change', {bubbles: true})); }""",
        [selector, value],
    )


@pytest.mark.parametrize("page", ["link_kernel", "transit", "loss_curves"], indirect=True)
def test_points_of_the_simulation_and_curves_explorers_that_are_figures(page):
    """Keyed rows hold their figure's value (in the chart's unit), text and source cell, only at the settings the
    figure was computed for: moved off them, the rows that are no longer that figure lose their key."""
    name = page.url.rstrip("/").rsplit("x-", 1)[1]
    page.wait_for_selector(f"#chart-{name}[data-state='ready']")
    figures = page.evaluate(
        "() => fetch('../figures.json').then((r) => r.json()).then((j) => Object.fromEntries(j.figures.map((f) => [f.key, f])))"
    )
    if name == "link_kernel":
        rates = {"sim.module.port_gvalues", "sim.setting.module.optics_gvalues", "sim.setting.module.fpga"}
        for budget in ("low", "high", "free"):
            page.check(f"#link_kernel-budget-{budget}")
            keys = keyed(page, name, figures)
            assert sorted(keys) == sorted(rates | {f"sim.module.time_ms.{budget}"})
        # the optics' rate and the module's time move with the planes; the port's and the FPGA's do not
        move(page, "#link_kernel-planes", "5")
        assert sorted(keyed(page, name, figures)) == ["sim.module.port_gvalues", "sim.setting.module.fpga"]
        move(page, "#link_kernel-planes", "8")
        move(page, "#link_kernel-fpga", "30")
        assert sorted(keyed(page, name, figures)) == ["sim.module.port_gvalues", "sim.setting.module.optics_gvalues"]
    elif name == "transit":
        assert keyed(page, name, figures) == []  # seconds to the target, by part: none is a figure
        page.check("#transit-view-1")  # one step, in ms
        assert keyed(page, name, figures) == ["sim.anchor.compute_ms"]
        move(page, "#transit-wan", "eth-25g")
        assert keyed(page, name, figures) == []
    else:
        keys = keyed(page, name, figures)
        finals = [k for k in keys if k.startswith("exp.final_mean.")]
        assert len(finals) == 8 and len(keys) == 15  # every shown curve's end; a mark per configuration that gets there
        targets = page.evaluate(
            "() => [...document.querySelectorAll('#loss_curves-target option')].map((o) => o.value)"
        )
        marks = 0
        for t in targets:
            move(page, "#loss_curves-target", t)
            keys = keyed(page, name, figures)
            assert sorted(k for k in keys if k.startswith("exp.final_mean.")) == sorted(finals)
            steps = [k for k in keys if not k.startswith("exp.final_mean.")]
            assert all(k.startswith("exp.steps.") and k.endswith("." + t) for k in steps)
            marks += len(steps)
        assert marks >= 20
        page.click("#loss_curves-axis-wire")  # a mark's x is bytes on the wire: no figure
        assert sorted(keyed(page, name, figures)) == sorted(finals)
    assert page.problems == []
