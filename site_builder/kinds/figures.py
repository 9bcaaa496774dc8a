"""The figure index (``figures/``, generated): every figure, grouped by results file and section."""

from __future__ import annotations

from typing import Any

from site_builder.content.plan import Kind, PlannedPage
from site_builder.render.extras import figure_groups
from site_builder.render.pages import Rendering, json_script
from site_builder.results.figures import ResultsFile


class FiguresKind(Kind):
    def generated(self, files: dict[str, ResultsFile]) -> list[PlannedPage]:
        return [PlannedPage("figures/", self, "templates/figures.html", "Every number on the site")]

    def context(self, p: PlannedPage, r: Rendering) -> dict[str, Any]:
        groups = figure_groups(r.renderer.registry, r.renderer.files, r.root)
        return {"groups": groups, "meta": {}, "page_titles": json_script(dict(sorted(r.renderer.titles.items())))}

    def describe(self, p: PlannedPage, where: str) -> str | None:
        return (
            "Every number on the site: its key, its text, the results cell it is checked against and the pages "
            "that show it, grouped by results file and filterable."
        )


FIGURES = FiguresKind("figures", "figures.html", False)
