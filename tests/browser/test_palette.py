"""The explorers' series colours under simulated colour blindness, in Chromium, in both colour schemes.

Every explorer is drawn with all its series shown (each series toggle checked), and the colours are read from the
rendered chart (the computed stroke of each line and fill of each mark or bar: what the page's CSS makes of the
trace colours, in dark mode too). Within one plot area, every pair of series must stay apart: a pair is distinct
when the two are different kinds of mark (line, marker, bar), lines with different dashes, markers with
different symbols, or colours at least ΔE 12 apart (CIEDE2000) in normal vision and under simulated
deuteranopia, protanopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1, on linear sRGB).

The simulation and the colour difference are implemented here; the colour difference is checked against
Sharma, Wu and Dalal's published test pairs (2005).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

MIN_DELTA_E = 12.0

# Machado et al. (2009), severity 1.0, applied to linear RGB.
MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = (None, *MACHADO)
Lab = tuple[float, float, float]


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab_of_linear(r: float, g: float, b: float) -> Lab:
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def lab(rgb: tuple[int, int, int], vision: str | None = None) -> Lab:
    """CIELAB (D65) of an sRGB colour (0–255), as seen with `vision` (None: normal)."""
    lin = [_linear(c / 255) for c in rgb]
    if vision is not None:
        m = MACHADO[vision]
        lin = [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    return _lab_of_linear(*lin)


def delta_e_2000(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = L2 - L1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (L1 + L2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    sl = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    sc = 1 + 0.045 * cp_bar
    sh = 1 + 0.015 * cp_bar * t
    rt = -math.sin(math.radians(2 * theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (d_h / sh) ** 2 + rt * (dc / sc) * (d_h / sh))


def closest(rgb1: tuple[int, int, int], rgb2: tuple[int, int, int]) -> tuple[float, str]:
    """The smallest ΔE between two colours over normal vision and the three simulations, and where."""
    return min((delta_e_2000(lab(rgb1, v), lab(rgb2, v)), v or "normal vision") for v in VISIONS)


# Sharma, Wu and Dalal (2005), Table 1: pairs 1, 7, 13, 17, 19, 25, 34.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
]


@pytest.mark.parametrize(("lab1", "lab2", "want"), SHARMA)
def test_delta_e_2000_matches_the_published_pairs(lab1, lab2, want):
    assert delta_e_2000(lab1, lab2) == pytest.approx(want, abs=1e-4)
    assert delta_e_2000(lab2, lab1) == pytest.approx(want, abs=1e-4)


def test_the_simulations_keep_grey_and_merge_red_and_green():
    grey = (128, 128, 128)
    for v in MACHADO:
        assert delta_e_2000(lab(grey), lab(grey, v)) < 1.0, v
    red, green = (213, 94, 0), (0, 158, 115)  # far apart for normal vision, close without red-green cones
    assert closest(red, green)[0] < delta_e_2000(lab(red), lab(green)) / 2


# ------------------------------------------------------------------------------------------------ in Chromium

SHOW_ALL_JS = """async (name) => {
  const holder = document.getElementById('chart-' + name);
  for (const box of holder.querySelectorAll('.explorer-toggles input[type=checkbox]')) {
    if (!box.checked) box.click();
  }
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""

# Every series drawn: (plot area, series id, kind, colour, dash or symbol). A line is one series; a trace's
# markers or bars are one series per colour (a bar chart coloured per bar has a series per colour). Traces that
# take no hover (bands, target lines, cursors) are guides, not series.
STYLES_JS = """(name) => {
  const holder = document.getElementById('chart-' + name);
  const out = [];
  function colour(cs) {
    const fill = cs.fill, open = !fill || fill === 'none' || /rgba\\(.*, 0\\)$/.test(fill) || cs.fillOpacity === '0';
    return open ? cs.stroke : fill;
  }
  for (const gd of holder.querySelectorAll('.js-plotly-plot')) {
    gd.querySelectorAll('.scatterlayer g.trace, .barlayer g.trace').forEach((g) => {
      const trace = g.__data__ && g.__data__[0] && g.__data__[0].trace;
      if (!trace || trace.visible !== true || trace.hoverinfo === 'skip') return;
      const area = (trace.xaxis || 'x') + (trace.yaxis || 'y');
      const id = trace.index;
      if (trace.type === 'bar') {
        g.querySelectorAll('g.point > path').forEach((p) => {
          if (!p.getAttribute('d') || p.getAttribute('d') === 'M0,0Z') return;
          out.push([area, id + ':' + colour(getComputedStyle(p)), 'bar', colour(getComputedStyle(p)), '']);
        });
        return;
      }
      const line = g.querySelector('path.js-line');
      if (line && line.getAttribute('d')) {
        const cs = getComputedStyle(line);
        out.push([area, id + ':line', 'line', cs.stroke, cs.strokeDasharray === 'none' ? 'solid' : cs.strokeDasharray]);
      }
      g.querySelectorAll('path.point').forEach((p) => {
        const i = p.__data__ && p.__data__.i;
        const sym = Array.isArray(trace.marker.symbol) ? trace.marker.symbol[i] : trace.marker.symbol;
        const c = colour(getComputedStyle(p));
        out.push([area, id + ':' + c + ':' + sym, 'marker', c, String(sym)]);
      });
    });
  }
  return out;
}"""


def rgb_of(css: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, [\d.]+)?\)", css.strip())
    assert m, f"not a colour: {css!r}"
    return int(m[1]), int(m[2]), int(m[3])


def explorer_pages(site_dir: Path) -> dict[str, str]:
    """Each explorer and the first page (by path) that shows it."""
    found: dict[str, str] = {}
    for page in sorted(site_dir.rglob("index.html")):
        for name in re.findall(r'<figure class="chart" id="chart-(\w+)" data-chart=', page.read_text(encoding="utf-8")):
            found.setdefault(name, page.relative_to(site_dir).as_posix().removesuffix("index.html"))
    return found


def too_close(styles: list[list[str]]) -> tuple[list[str], int, float]:
    """The pairs of series of one plot area that nothing tells apart, how many pairs were compared, and the
    smallest colour difference among the pairs that only colour tells apart."""
    series = {(s[0], s[1]): s for s in styles}
    bad, pairs, least = [], 0, math.inf
    for (a_area, _), a in series.items():
        for (b_area, _), b in series.items():
            if a_area != b_area or a[1] >= b[1]:
                continue
            pairs += 1
            if a[2] != b[2] or a[4] != b[4]:
                continue  # another kind of mark, another dash or another symbol
            d, vision = closest(rgb_of(a[3]), rgb_of(b[3]))
            least = min(least, d)
            if d < MIN_DELTA_E:
                bad.append(f"{a[2]} {a[3]} {a[4]} vs {b[3]}: ΔE {d:.1f} ({vision})")
    return bad, pairs, least


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_pair_of_series_stays_apart_in_colour_blindness(tab, server, site_dir, scheme):
    pages = explorer_pages(site_dir)
    assert len(pages) == 8, pages
    page = tab(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    problems, report = [], []
    for name, path in sorted(pages.items()):
        page.goto(server + path)
        page.wait_for_selector(f"#chart-{name}[data-ready='true']", state="attached", timeout=30_000)
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
        page.evaluate(SHOW_ALL_JS, name)
        styles = page.evaluate(STYLES_JS, name)
        assert styles, f"{name}: no series read from the chart"
        bad, pairs, least = too_close(styles)
        report.append(f"{name}: {len({s[1] for s in styles})} series, {pairs} pairs, least ΔE {least:.1f}")
        problems += [f"{name} ({scheme}): {b}" for b in bad]
    print("\n".join(report))
    assert not problems, "\n".join(problems)
