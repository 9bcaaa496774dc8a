"""A results page: one per results file, generated; its sections, tables (CSV) and downloads."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from site_builder.content.plan import Kind, PlannedPage
from site_builder.render.extras import shorten
from site_builder.render.pages import Rendering
from site_builder.render.results_page import render_results
from site_builder.results.figures import ResultsFile

NAV_TITLES = {"vendor": "Experiment results"}  # a results file's folder -> its navigation title, if not its own


class ResultsKind(Kind):
    def generated(self, files: dict[str, ResultsFile]) -> list[PlannedPage]:
        return [
            PlannedPage(
                rf.page,
                self,
                rf.label,
                rf.title,
                rf.series,
                NAV_TITLES.get(rf.label.split("/", 1)[0], rf.title),
                10 + i,
                results=rf,
            )
            for i, rf in enumerate(files.values())
        ]

    def context(self, p: PlannedPage, r: Rendering) -> dict[str, Any]:
        rf = p.results
        assert rf is not None
        tables: list[tuple[str, str]] = []
        body, toc = render_results(
            rf.text, rf.sections, r.md, r.renderer.registry.by_cell(rf.label), r.root, tables, here=p.url
        )
        r.renderer.write_tables(p.url, tables)
        return {"body": Markup(body), "toc": toc, "source": rf.label, "meta": {}, "downloads": downloads(rf, r)}

    def describe(self, p: PlannedPage, where: str) -> str | None:
        assert p.results is not None
        return shorten(
            f"{p.title}{where}: the results file {p.results.label}, section by section; every number links to "
            "its cell and every table downloads as CSV."
        )


def downloads(rf: ResultsFile, r: Rendering) -> dict[str, Any]:
    """A results page's source: the published results.md and results.json beside it, or a vendored
    file's pinned path and SHA-256 (and the method page's list of pins, when the site has one)."""
    if rf.label.startswith("data/"):
        base = "../" + rf.page.rstrip("/").rsplit("/", 1)[-1]  # written beside the page's folder
        return {"files": [("results.md", base + ".md"), ("results.json", base + ".json")], "pinned": ""}
    pin = r.renderer.pins.get(rf.label, "")
    where, _, digest = pin.rpartition(" ")
    pins_page = next((u for u in r.renderer.titles if u.endswith("method/")), None)
    pins_href = f"{r.root}{pins_page}#pinned-inputs" if pins_page else ""
    return {"files": [], "pinned": where, "sha256": digest, "pins_href": pins_href}


RESULTS = ResultsKind("results", "results.html", False)
