"""The decks' PDFs as the build wrote them (site_builder/printing/store.py): one 960×540 pt page per slide, every chart
page with its traces drawn, found by their colours in the rendered page (pdftoppm) inside each plot's area, so a
blank chart fails; no link of the built site points at a missing file, the PDFs included; and the browser's own print
(Ctrl+P: print media and the beforeprint event) lays the slides out the same way, one per page, charts drawn."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from site_builder.printing import pdf
from site_builder.render.links import check_site
from tests.browser.conftest import take_tab
from tests.browser.tabs import TABS

pypdf = pytest.importorskip("pypdf")
PDFTOPPM = shutil.which("pdftoppm") or "/usr/bin/pdftoppm"
DPI = 96  # one pixel per CSS pixel: the page is 1280×720 CSS px
NEAR = 40  # a pixel "has" a colour when its channels differ from it by this much in all (antialiasing, blending)
NOT_TRACES = {(255, 255, 255), (0, 0, 0), (221, 221, 221), (68, 68, 68), (17, 17, 17)}  # paper, text, grid, axes

# In print media, as the print has it (pdf.py FIT and deck.js's beforeprint): for each slide, the plot areas of its
# charts (relative to the slide) and the colours its traces are drawn in (read from the drawn SVG).
MEASURE = r"""() => Array.from(document.querySelectorAll('section.slide')).map(s => {
  const box = s.getBoundingClientRect();
  const plots = Array.from(s.querySelectorAll('figure.chart .js-plotly-plot')).map(gd => {
    const areas = Array.from(gd.querySelectorAll('.nsewdrag')).map(r => {
      const b = r.getBoundingClientRect();
      return [b.left - box.left, b.top - box.top, b.width, b.height];
    });
    const size = new Map();  // colour -> how much of it is drawn: a bar's or marker's area, a line's extent
    gd.querySelectorAll('.scatterlayer .trace path.js-line, .scatterlayer .trace .point, .barlayer .trace path')
      .forEach(el => {
        const line = el.classList.contains('js-line');
        const st = getComputedStyle(el);
        const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec((line ? st.stroke : st.fill) || '');
        if (!m || (m[4] !== undefined && Number(m[4]) <= 0.5) || st.visibility === 'hidden') return;
        const b = el.getBBox();
        const key = [+m[1], +m[2], +m[3]].join(',');
        size.set(key, (size.get(key) || 0) + (line ? Math.max(b.width, b.height) : b.width * b.height));
      });
    // a series with next to nothing drawn (a bar of height zero: a value not available) is not looked for
    const colours = Array.from(size).filter(([, n]) => n >= 20).map(([c]) => c);
    return {areas, colours};
  });
  return {width: box.width, height: box.height, plots};
})"""


def _decks(site: Path) -> list[str]:
    return sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("*/decks/*/index.html"))


def _measure(page: Any, server: str, url: str, print_with_browser: bool = True) -> tuple[list[dict], bytes]:
    """The slides' print layout of one deck (see MEASURE), and, when asked, the page printed by the browser itself
    as a reader's Ctrl+P does (print media, beforeprint). ``page`` is left in screen media again, for the next
    deck."""
    page.goto(server + url)
    page.evaluate(f"() => {pdf.READY}")
    page.emulate_media(media="print", color_scheme="light")
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    slides = page.evaluate(MEASURE)
    data = page.pdf(prefer_css_page_size=True, print_background=True) if print_with_browser else b""
    page.emulate_media(media="screen", color_scheme="light")
    return slides, data


@contextlib.contextmanager
def print_tab(browser: Any) -> Iterator[Any]:
    """A kept tab of the light scheme's context (tests/browser/conftest.py's take_tab), at the print's size."""
    key, page = take_tab(browser, viewport={"width": pdf.WIDTH, "height": pdf.HEIGHT}, color_scheme="light")
    try:
        yield page
    finally:
        TABS.give_back(key, page)


@pytest.fixture(scope="module")
def measured(browser: Any, server: str, site_dir: Path) -> Iterator[dict[str, tuple[list[dict], bytes]]]:
    """Every deck's print layout and its browser print (``_measure``), read once for the two tests below (each read
    every deck in a context of its own before): one tab, at the print's size, for the five decks in turn. The
    layout is read before the print, as each test read it; nothing here writes to the site."""
    with print_tab(browser) as page:
        yield {url: _measure(page, server, url) for url in _decks(site_dir)}


def _page_pixels(data: bytes, n: int) -> np.ndarray:
    """Page ``n`` (from 1) of a PDF rendered by pdftoppm at one pixel per CSS pixel: an (height, width, 3) array."""
    got = subprocess.run(
        [PDFTOPPM, "-r", str(DPI), "-f", str(n), "-l", str(n), "-"],
        input=data,
        capture_output=True,
        check=True,
        timeout=120,
    ).stdout
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", got)
    assert m, "pdftoppm wrote no PPM image"
    w, h = int(m.group(1)), int(m.group(2))
    return np.frombuffer(got[m.end() : m.end() + w * h * 3], dtype=np.uint8).reshape(h, w, 3)


def _traces_drawn(label: str, data: bytes, slides: list[dict]) -> int:
    """Every chart of every slide has each of its traces' colours in its plot area on its page; returns the charts
    checked."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == len(slides), f"{label}: {len(reader.pages)} pages for {len(slides)} slides"
    checked = 0
    for i, slide in enumerate(slides, start=1):
        assert (round(slide["width"]), round(slide["height"])) == (pdf.WIDTH, pdf.HEIGHT), f"{label} slide {i}"
        page = reader.pages[i - 1]
        assert (float(page.mediabox.width), float(page.mediabox.height)) == (960, 540), f"{label} page {i}"
        plots = [p for p in slide["plots"] if p["areas"]]
        if not plots:
            continue
        pixels = _page_pixels(data, i).astype(np.int16)
        for k, plot in enumerate(plots):
            colours = [c for c in (tuple(map(int, s.split(","))) for s in plot["colours"]) if c not in NOT_TRACES]
            assert colours, f"{label} slide {i} chart {k + 1}: no trace colour read from the page"
            for c in colours:
                found = 0
                for x, y, w, h in plot["areas"]:
                    x0, y0 = max(int(x), 0), max(int(y), 0)
                    crop = pixels[y0 : int(y + h), x0 : int(x + w)]
                    found += int((np.abs(crop - np.array(c, dtype=np.int16)).max(axis=2) <= NEAR).sum())
                assert found >= 3, f"{label} slide {i} chart {k + 1}: no pixel of trace colour rgb{c} in its plot area"
            checked += 1
    return checked


def test_every_chart_page_of_the_built_pdfs_has_its_traces_drawn(
    measured: dict[str, tuple[list[dict], bytes]], site_dir: Path
) -> None:
    decks = _decks(site_dir)
    assert len(decks) == 5
    charts = 0
    for url in decks:
        slides, _ = measured[url]
        assert any(s["plots"] for s in slides), f"{url}: no chart"
        charts += _traces_drawn(url, (site_dir / (url.rstrip("/") + ".pdf")).read_bytes(), slides)
    assert charts >= 7


def test_browser_print_gives_one_slide_per_page_with_charts(
    measured: dict[str, tuple[list[dict], bytes]], site_dir: Path
) -> None:
    for url in _decks(site_dir):
        slides, data = measured[url]
        _traces_drawn(f"{url} (printed by the browser)", data, slides)


def test_no_link_of_the_built_site_points_at_a_missing_file(site_dir: Path) -> None:
    for url in _decks(site_dir):
        data = (site_dir / (url.rstrip("/") + ".pdf")).read_bytes()
        assert data.startswith(b"%PDF-"), url
        assert b"/CreationDate" not in data and b"/ModDate" not in data and b"127.0.0.1" not in data, url
    pages = {p.parent.relative_to(site_dir).as_posix() + "/": "" for p in site_dir.rglob("index.html")}
    assert check_site(site_dir, pages)[0] > 0  # every page and style sheet, read from disk; no file excused


def test_a_missing_pdf_is_a_link_error(site_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy)
    victim = copy / (_decks(copy)[0].rstrip("/") + ".pdf")
    victim.unlink()
    with pytest.raises(Exception, match=re.escape(victim.name)):
        check_site(copy, {})


def test_the_trace_check_fails_on_charts_printed_blank(browser: Any, site_dir: Path, tmp_path: Path) -> None:
    """The old print.css bug brought back in a copy of the site (every Plotly layer white, covering the traces): the
    check above must fail on that print."""
    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy)
    css = copy / "assets" / "css" / "print.css"
    css.write_text(css.read_text("utf-8") + "\nhtml:root .js-plotly-plot .main-svg { background: #fff !important; }\n")
    url = next(u for u in _decks(copy) if u.startswith("cit/decks/04-"))
    with pdf.browser() as b, pdf.serving(copy) as base:
        data = pdf.print_pages(b, base, [url])[url]
        with print_tab(browser) as page:
            slides, _ = _measure(page, base, url, print_with_browser=False)
    with pytest.raises(AssertionError, match="no pixel of trace colour"):
        _traces_drawn(url, data, slides)
