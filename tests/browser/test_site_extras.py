"""What a published site has besides its pages: sitemap, 404 page, titles and descriptions, the results files
as downloads, every results table as CSV, and a figure index that is small, filterable and fits a phone.

Every check iterates over the built site (its pages, its tables), not over a fixed list.
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest

pytestmark = pytest.mark.browser

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
FIGURE_INDEX_MAX_BYTES = 300_000


class Head(HTMLParser):
    """A page's <title> text and its meta description."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title: str | None = None
        self.description: str | None = None
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "title":
            self._in_title = True
            self.title = ""
        elif tag == "meta" and a.get("name") == "description":
            self.description = a.get("content") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title = (self.title or "") + data


def html_pages(site_dir: Path) -> list[Path]:
    return sorted(site_dir.rglob("*.html"))


def test_sitemap_lists_every_built_page(site_dir: Path, pages: list[str]) -> None:
    root = ET.fromstring((site_dir / "sitemap.xml").read_bytes())
    assert root.tag == f"{SITEMAP}urlset"
    locs = [u.findtext(f"{SITEMAP}loc") for u in root.findall(f"{SITEMAP}url")]
    assert len(locs) == len(set(locs))
    assert sorted(locs) == sorted("/" + p for p in pages)


def test_404_page_links_home_and_to_the_figure_index(tab, server: str, site_dir: Path) -> None:  # type: ignore[no-untyped-def]
    html = (site_dir / "404.html").read_text(encoding="utf-8")
    assert 'href="/"' in html and 'href="/figures/"' in html
    page = tab()
    errors: list[str] = []
    tab.on(page, "pageerror", lambda e: errors.append(str(e)))
    tab.on(page, "response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(server + "404.html", wait_until="networkidle")
    assert page.locator("h1").text_content() == "Page not found"
    for href in ("/", "/figures/"):
        resp = page.request.get(urljoin(server, href))
        assert resp.status == 200, href
    assert errors == []


def test_every_page_has_a_title_and_a_description(site_dir: Path) -> None:
    seen: dict[str, str] = {}
    for path in html_pages(site_dir):
        parts = path.relative_to(site_dir).parts
        # the search page, and reveal's speaker view (a vendored file the notes plugin opens, not a page to read)
        if "search" in parts or parts[:2] == ("assets", "vendor"):
            continue
        head = Head()
        head.feed(path.read_text(encoding="utf-8"))
        name = path.relative_to(site_dir).as_posix()
        assert head.title and head.title.strip(), f"{name}: no <title>"
        assert head.description is not None, f"{name}: no meta description"
        assert 40 <= len(head.description) <= 220, f"{name}: description of {len(head.description)} characters"
        assert ":fig[" not in head.description and "<" not in head.description, name
        seen[name] = head.description
    assert "index.html" in seen and "404.html" in seen


RESULTS_TABLES = """() => Array.from(document.querySelectorAll('p.table-csv a')).map(a => {
  let wrap = a.closest('p').previousElementSibling;
  const table = wrap.matches('table') ? wrap : wrap.querySelector('table');
  return {href: a.getAttribute('href'),
          rows: Array.from(table.rows).map(r => Array.from(r.cells).map(c => c.textContent.trim()))};
})"""


def results_pages(site_dir: Path, pages: list[str]) -> list[str]:
    return [p for p in pages if 'class="page results"' in (site_dir / p / "index.html").read_text(encoding="utf-8")]


def test_every_results_table_downloads_as_csv_equal_to_its_cells(tab, server: str, site_dir: Path, pages) -> None:  # type: ignore[no-untyped-def]
    found = results_pages(site_dir, pages)
    assert found
    page = tab()
    checked = 0
    for path in found:
        page.goto(server + path)
        tables = page.evaluate(RESULTS_TABLES)
        html = (site_dir / path / "index.html").read_text(encoding="utf-8")
        assert len(tables) == html.count("<table"), f"{path}: a table without its CSV link"
        for t in tables:
            assert t["href"].startswith("tables/") and t["href"].endswith(".csv")
            file = site_dir / path / t["href"]
            with file.open(encoding="utf-8", newline="") as fh:
                rows = list(csv.reader(fh))
            assert rows == t["rows"], f"{path}{t['href']}: the CSV differs from the table"
            checked += 1
    assert checked >= 20


def test_results_pages_link_their_source(site_dir: Path, pages: list[str]) -> None:
    figures = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]
    files = {f["source"]["page"]: f["source"]["file"] for f in figures}
    for path in results_pages(site_dir, pages):
        html = (site_dir / path / "index.html").read_text(encoding="utf-8")
        source = files[path]
        if source.startswith("data/"):
            links = {
                urljoin("http://site/" + path, href).removeprefix("http://site/")
                for href in re.findall(r'<a href="([^"]+)" download>results\.(?:md|json)</a>', html)
            }
            want = {f"{path.rstrip('/')}.{ext}" for ext in ("md", "json")}
            assert links == want, f"{path}: links {links}"
            assert all((site_dir / w).is_file() for w in want)
        else:
            assert re.search(r'<code class="digest">[0-9a-f]{64}</code>', html), f"{path}: no pinned SHA-256"
            assert source.removeprefix("vendor/") in html


def test_the_figure_index_is_small_and_lists_every_key_without_scripts(site_dir: Path) -> None:
    html = (site_dir / "figures" / "index.html").read_text(encoding="utf-8")
    assert len(html.encode("utf-8")) < FIGURE_INDEX_MAX_BYTES
    figures = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]
    links: dict[str, str] = {}
    for href, keys in re.findall(r'<li><a href="([^"]+)">([^<]+)</a></li>', html):
        for key in keys.split(", "):
            links[key] = href
    assert set(links) == {f["key"] for f in figures}
    for f in figures:
        s = f["source"]
        assert links[f["key"]] == f"../{s['page']}#{s['anchor']}", f["key"]


FIRST = 100  # rows a file's table shows before its "Show all" button (figures.js)
VISIBLE_KEYS = """() => Array.from(document.querySelectorAll('.fig-table tbody tr'))
  .filter(r => r.offsetParent !== null).map(r => r.dataset.key)"""


@pytest.mark.parametrize("width", [390, 1200])
def test_the_figure_index_filters_and_fits_the_screen(tab, server: str, site_dir: Path, width: int) -> None:  # type: ignore[no-untyped-def]
    figures = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]
    page = tab(viewport={"width": width, "height": 800})
    page.goto(server + "figures/")
    page.wait_for_selector('article.figures[data-ready="true"]', timeout=20_000)
    # each file's table opens with its first FIRST rows, and a button for the rest that says how many there are
    by_file: dict[str, list[str]] = {}
    for f in figures:
        by_file.setdefault(f["source"]["file"], []).append(f["key"])
    assert sorted(page.evaluate(VISIBLE_KEYS)) == sorted(k for keys in by_file.values() for k in keys[:FIRST])
    buttons = page.locator(".fig-show-all:visible")
    assert sorted(buttons.all_inner_texts()) == sorted(
        f"Show all {len(keys)} figures of this file" for keys in by_file.values() if len(keys) > FIRST
    )
    file = buttons.first.evaluate("b => b.closest('section').dataset.file")
    first = page.locator(f'section[data-file="{file}"] .fig-show-all')
    first.focus()
    page.keyboard.press("Enter")
    assert not first.is_visible()
    # the keyboard lands on the first row the button brought
    assert page.evaluate("document.activeElement.closest('tr').dataset.key") == by_file[file][FIRST]
    while buttons.count():
        buttons.first.click()
    assert sorted(page.evaluate(VISIBLE_KEYS)) == sorted(f["key"] for f in figures)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    key = "exp.final.B"
    page.fill("#fig-filter-input", key)
    page.wait_for_function(f"() => ({VISIBLE_KEYS})().length < {len(figures)}", timeout=5_000)
    shown = page.evaluate(VISIBLE_KEYS)
    assert key in shown
    assert all(k.lower().startswith(key.lower()) for k in shown), shown
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    by_page = "cit/optics/"
    on_page = {f["key"] for f in figures if by_page in f["pages"] or by_page == f["source"]["page"]}
    page.fill("#fig-filter-input", by_page)
    page.wait_for_function(f"() => ({VISIBLE_KEYS})().length === {len(on_page)}", timeout=5_000)
    assert set(page.evaluate(VISIBLE_KEYS)) == on_page
    page.fill("#fig-filter-input", "no figure is called this")
    page.wait_for_function(f"() => ({VISIBLE_KEYS})().length === 0", timeout=5_000)
    assert "0 figures match" in (page.text_content("#fig-count") or "")


def test_the_printed_figure_index_holds_every_row(tab, server: str, site_dir: Path) -> None:  # type: ignore[no-untyped-def]
    figures = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))["figures"]
    page = tab()
    page.goto(server + "figures/")
    page.wait_for_selector('article.figures[data-ready="true"]', timeout=20_000)
    assert len(page.evaluate(VISIBLE_KEYS)) < len(figures)
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # what a browser does on Ctrl+P
    page.emulate_media(media="print")
    try:
        assert sorted(page.evaluate(VISIBLE_KEYS)) == sorted(f["key"] for f in figures)
        assert page.locator(".fig-show-all:visible").count() == 0
    finally:
        page.emulate_media(media="screen")


def test_a_figure_on_many_pages_lists_its_first_pages_and_the_rest_on_request(
    browser, server: str, site_dir: Path
) -> None:  # type: ignore[no-untyped-def]
    """On a large site a figure is on hundreds of pages: its row lists eight, and a button makes the rest (the
    filter finds the row by any of them). Served here a figure list whose exp.final.B is on 30 pages."""
    doc = json.loads((site_dir / "figures.json").read_text(encoding="utf-8"))
    many = [f"cit/optics-copy{i:02d}/" for i in range(30)]
    for f in doc["figures"]:
        if f["key"] == "exp.final.B":
            f["pages"] = many
    context = browser.new_context(viewport={"width": 1200, "height": 800})  # its own: the route is not shared
    page = context.new_page()
    page.route("**/figures.json", lambda route: route.fulfill(json=doc))
    page.goto(server + "figures/")
    page.wait_for_selector('article.figures[data-ready="true"]', timeout=20_000)
    page.fill("#fig-filter-input", "copy29")  # a page not listed in the row still finds it
    page.wait_for_function(f"() => ({VISIBLE_KEYS})().length === 1", timeout=5_000)
    assert page.evaluate(VISIBLE_KEYS) == ["exp.final.B"]
    cell = page.locator('tr[data-key="exp.final.B"] td.fig-pages')
    assert [a.get_attribute("href") for a in cell.locator("a").all()] == [f"../{u}" for u in many[:8]]
    button = cell.locator("button")
    assert button.inner_text() == "and 22 more"
    button.click()
    assert [a.get_attribute("href") for a in cell.locator("a").all()] == [f"../{u}" for u in many]
    assert cell.locator("button").count() == 0
    assert cell.inner_text().count(", ") == 29
    context.close()


HEADING = re.compile(r'<h([23]) id="([^"]+)"[^>]*>(.*?)</h\1>', re.S)


def test_csv_files_parse_as_csv(site_dir: Path) -> None:
    files = sorted(site_dir.rglob("tables/*.csv"))
    assert files
    for f in files:
        rows = list(csv.reader(io.StringIO(f.read_text(encoding="utf-8"), newline="")))
        assert rows and all(len(r) == len(rows[0]) for r in rows), f


CHART_SCRIPTS = re.compile(r'<script type="application/json" id="chart-scripts">(.*?)</script>', re.S)


def test_an_explorers_data_is_one_file_the_pages_showing_it_fetch_once(
    browser, server: str, site_dir: Path, pages
) -> None:  # type: ignore[no-untyped-def]
    """No page holds an explorer's payload: each page with a chart lists explorers/NAME.json, the file is the one
    payload the build made for NAME, and a page with two charts fetches each of its files once and draws both."""
    from site_builder.explorers import EXPLORERS

    shown: dict[str, list[str]] = {}
    for path in pages:
        html = (site_dir / path / "index.html").read_text("utf-8")
        assert '<script type="application/json" id="data-' not in html, path
        charts = re.findall(r'<figure class="chart[^"]*"[^>]*data-chart="([a-z_]+)"', html)
        listed = [json.loads(b)["data"] for b in CHART_SCRIPTS.findall(html)]
        if not charts:
            assert listed == [], path
            continue
        (data,) = listed
        assert [urljoin(f"/{path}", src) for src in data] == [f"/explorers/{n}.json" for n in dict.fromkeys(charts)]
        for name in charts:
            shown.setdefault(name, []).append(path)
    assert set(shown) == set(EXPLORERS), "every explorer is shown somewhere"
    for name in EXPLORERS:
        assert json.loads((site_dir / "explorers" / f"{name}.json").read_text("utf-8")), name
    two = next(p for p in pages if sum(p in v for v in shown.values()) > 1)  # a page with two charts
    names = sorted(n for n in shown if two in shown[n])
    context = browser.new_context()
    page = context.new_page()
    got: list[str] = []
    page.on("request", lambda r: got.append(r.url) if r.url.startswith(f"{server}explorers/") else None)
    page.goto(server + two)
    page.evaluate("() => document.querySelectorAll('figure.chart[data-chart]').forEach(f => f.scrollIntoView())")
    for name in names:
        page.wait_for_function(f"() => document.getElementById('chart-{name}').dataset.ready === 'true'")
    context.close()
    assert sorted(got) == sorted(f"{server}explorers/{n}.json" for n in names)


def test_a_chart_whose_data_does_not_load_says_so_where_it_would_be(
    browser, server: str, site_dir: Path, pages
) -> None:  # type: ignore[no-untyped-def]
    """The payload is a request of its own: when it fails, the chart's loading note says the data did not load (and
    the console names the chart), rather than promising a chart forever."""
    path = next(p for p in pages if '<figure class="chart"' in (site_dir / p / "index.html").read_text("utf-8"))
    context = browser.new_context()
    context.route("**/explorers/*.json", lambda route: route.fulfill(status=404, body="gone"))
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server + path)
    page.evaluate("() => document.querySelectorAll('figure.chart[data-chart]').forEach(f => f.scrollIntoView())")
    note = page.locator("figure.chart[data-chart] .chart-loading").first
    page.wait_for_function("e => e.textContent.includes('did not load')", arg=note.element_handle(), timeout=10_000)
    assert "HTTP 404" in note.inner_text()
    assert page.evaluate("document.querySelectorAll('figure.chart[data-ready=\"true\"]').length") == 0
    context.close()
    assert any("its data did not load" in e for e in errors), errors
