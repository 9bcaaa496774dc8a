"""The explorers' shared lifecycle (charts/mount.js) and the fast update's Plotly version check (charts/fast.js).

Every explorer is drawn by ``Charts.mount``, which sends "chart:drawn" on its figure after the first draw, after
each update and after a fit to a new size (and a11y.js after the data table opens). The fast update reads Plotly's
internals only under the Plotly release it was written for (the vendored bundle's ``Plotly.version``): with the
version overridden before any chart code runs, every move goes through Plotly's public ``Plotly.react`` instead,
and the drawing and the printed values after each move equal those of the fast path, move for move.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser import explorer_sandbox as sandbox
from tests.conftest import PROJECT

pytestmark = pytest.mark.browser

VERSIONS = PROJECT / "site_builder" / "static" / "vendor" / "VERSIONS"
BUNDLE = PROJECT / "site_builder" / "static" / "vendor" / "plotly" / "plotly-scatter-bar.min.js"

# Run before the page's scripts: the events the mount sends, and optionally another Plotly.version, set as soon as
# Plotly is defined (window.Plotly as a property whose setter changes it), before any chart code reads it.
INIT = """(() => {
  window.__drawn = [];
  document.addEventListener('chart:drawn', (e) => window.__drawn.push([e.target.id, e.detail.reason]));
  let P;
  Object.defineProperty(window, 'Plotly', { configurable: true, get() { return P; }, set(v) {
    P = v;
    if (OTHER) v.version = OTHER;
  } });
})();"""
# Plotly.react (as the chart code calls it, by its global name) counted from now on.
COUNT_REACTS = """() => { window.__reacts = 0; const react = Plotly.react;
  Plotly.react = function () { window.__reacts++; return react.apply(this, arguments); }; }"""

# One move of each control in turn (the benchmark's moves): a select to its next option, a radio group to its next
# radio, a range or number one step (bouncing at its ends), a checkbox toggled; then the drawing once settled.
MOVE_JS = """async ({name, k}) => {
  const holder = document.getElementById('chart-' + name);
  const groups = [];
  const radios = new Map();
  holder.querySelectorAll('select, input').forEach((e) => {
    if (e.type === 'radio') { if (!radios.has(e.name)) { radios.set(e.name, []); groups.push(radios.get(e.name)); }
                              radios.get(e.name).push(e); }
    else if (['select-one', 'range', 'number', 'checkbox'].includes(e.type) && e.id) groups.push([e]);
  });
  const els = groups[k % groups.length];
  const e = els[0];
  let target = e, type = 'change';
  if (e.tagName === 'SELECT') e.selectedIndex = (e.selectedIndex + 1) % e.options.length;
  else if (e.type === 'radio') { const i = els.findIndex((r) => r.checked); target = els[(i + 1) % els.length];
                                 target.checked = true; }
  else if (e.type === 'checkbox') e.checked = !e.checked;
  else { const before = e.value; e.stepUp(); if (e.value === before) e.stepDown(); type = 'input'; }
  target.dispatchEvent(new Event(type, {bubbles: true}));
  for (let i = 0; i < 4; i++) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
  return groups.length;
}"""

DRAWING_JS = """name => {
  const holder = document.getElementById('chart-' + name);
  const gd = holder.querySelector('.js-plotly-plot');
  const paths = [...gd.querySelectorAll('.scatterlayer .trace path, .barlayer .trace path')]
    .map((p) => p.getAttribute('d')).filter((d) => d);
  const ticks = [...gd.querySelectorAll('.xtick text, .ytick text')].map((t) => t.textContent).sort(); // the labels, not Plotly's order
  const outs = [...holder.querySelectorAll('[data-out]')].map((o) => o.textContent);
  return JSON.stringify([gd.data.map((t) => [t.name, t.x, t.y, t.base]), gd.layout.xaxis.range,
                         gd.layout.yaxis.range, paths, ticks, outs]);
}"""


def _open(browser: Any, origin: str, name: str, other: str = "") -> Any:
    init = INIT.replace("OTHER", repr(other) if other else "null")
    return sandbox.open_chart(browser, origin, name, init=init)


def test_the_fast_path_is_written_for_the_vendored_plotly() -> None:
    pinned = next(line.split("\t")[-1] for line in VERSIONS.read_text().splitlines() if line.startswith("plotly\t"))
    head = BUNDLE.read_text(encoding="utf-8")[:200]
    assert re.search(r"plotly\.js " + re.escape(pinned) + r" ", head), head
    fast = (PROJECT / "site_builder" / "static" / "js" / "charts" / "fast.js").read_text(encoding="utf-8")
    assert f'const WRITTEN_FOR = "{pinned}";' in fast


@pytest.mark.parametrize("name", sandbox.CHARTS)
def test_another_plotly_version_takes_plotlys_public_update_and_draws_the_same(browser, explorer_origin, name):
    fast_pages = _open(browser, explorer_origin, name)
    slow_pages = _open(browser, explorer_origin, name, other="9.9.9")
    fast, slow = next(fast_pages), next(slow_pages)
    try:
        assert fast.evaluate("() => Charts.fastPath()") is True
        assert slow.evaluate("() => [Plotly.version, Charts.fastPath()]") == ["9.9.9", False]
        assert fast.evaluate(DRAWING_JS, name) == slow.evaluate(DRAWING_JS, name)
        fast.evaluate(COUNT_REACTS)
        slow.evaluate(COUNT_REACTS)
        n = fast.evaluate(MOVE_JS, {"name": name, "k": 0})
        slow.evaluate(MOVE_JS, {"name": name, "k": 0})
        for k in range(1, 2 * n + 1):
            assert fast.evaluate(DRAWING_JS, name) == slow.evaluate(DRAWING_JS, name), f"move {k}"
            fast.evaluate(MOVE_JS, {"name": name, "k": k})
            slow.evaluate(MOVE_JS, {"name": name, "k": k})
        assert slow.evaluate("() => window.__reacts") >= 2 * n  # every move through Plotly.react
        assert fast.evaluate("() => window.__reacts") < slow.evaluate("() => window.__reacts")
    finally:
        for gen in (fast_pages, slow_pages):
            next(gen, None)


@pytest.mark.parametrize("name", sandbox.CHARTS)
def test_the_mount_says_when_a_chart_was_drawn(browser, explorer_origin, name):
    pages = _open(browser, explorer_origin, name)
    page = next(pages)
    try:
        fig = f"chart-{name}"
        assert page.evaluate("() => window.__drawn")[:1] == [[fig, "first"]]
        page.evaluate("() => { window.__drawn = []; }")
        page.evaluate(MOVE_JS, {"name": name, "k": 0})
        assert [fig, "update"] in page.evaluate("() => window.__drawn")
        page.evaluate("() => { window.__drawn = []; }")
        page.set_viewport_size({"width": 700, "height": 900})
        page.wait_for_function(
            "fig => window.__drawn.some((d) => d[0] === fig && d[1] === 'resize')", arg=fig, timeout=10_000
        )
        width = page.evaluate(
            "n => { const gd = document.querySelector('#chart-' + n + ' .js-plotly-plot');"
            " return [gd.querySelector('.main-svg').getAttribute('width'), gd.clientWidth]; }",
            name,
        )
        assert float(width[0]) == pytest.approx(width[1], abs=1)
        page.evaluate("() => { window.__drawn = []; }")
        page.click(f"#{fig} > .chart-data-toggle")
        assert page.evaluate("() => window.__drawn") == [[fig, "table"]]
    finally:
        next(pages, None)
