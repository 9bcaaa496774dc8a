"""The decks' PDFs (site_builder/pdf.py): one 960×540 pt page per slide, every chart page with its traces drawn
(the print stylesheet once covered them with white layers), and the same bytes from two printings."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from site_builder import pdf

pypdf = pytest.importorskip("pypdf")


def _decks(site: Path) -> list[str]:
    return sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("*/decks/*/index.html"))


def _chart_slides(html: str) -> list[int]:
    """Indexes of the slides that hold a chart, in page order."""
    parts = re.split(r'<section class="slide', html)[1:]
    return [i for i, part in enumerate(parts) if 'class="chart' in part.split("</section>")[0]]


@pytest.fixture(scope="module")
def printed(site_dir: Path) -> dict[str, tuple[bytes, bytes]]:
    urls = _decks(site_dir)
    with pdf.browser() as b, pdf.serving(site_dir) as base:
        first = pdf.print_pages(b, base, urls)
        second = pdf.print_pages(b, base, urls)
        return {u: (pdf.fixed(first[u], "0" * 64, base), pdf.fixed(second[u], "0" * 64, base)) for u in urls}


def test_every_chart_page_has_its_traces(site_dir: Path, printed: dict[str, tuple[bytes, bytes]]) -> None:
    assert len(printed) == 5
    for url, (data, _) in printed.items():
        html = (site_dir / url / "index.html").read_text("utf-8")
        reader = pypdf.PdfReader(io.BytesIO(data))
        assert len(reader.pages) == html.count('<section class="slide'), url
        for page in reader.pages:
            assert (float(page.mediabox.width), float(page.mediabox.height)) == (960, 540), url
        charts = _chart_slides(html)
        assert charts, url
        for i in charts:
            ops = reader.pages[i].get_contents().get_data()
            # a drawn trace is a long path: many line segments (a slide without a chart has about 100). NB this reads
            # the drawing operators only: a white layer painted over the traces (the old print.css bug) keeps them;
            # a rendered check (pdftoppm, the traces' colours) is still to come
            segments = len(re.findall(rb"\s[lc]\n", ops))
            assert segments > 150, f"{url} slide {i + 1}: {segments} path segments, expected the traces drawn"


def test_two_printings_are_byte_identical(printed: dict[str, tuple[bytes, bytes]]) -> None:
    for url, (a, b) in printed.items():
        assert a == b, url
        assert b"/CreationDate" not in a and b"/ModDate" not in a, url
        assert b"127.0.0.1" not in a, url
