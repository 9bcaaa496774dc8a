"""The 404 page (``404.html``, generated): served at any depth, so its links go from the site root; not listed."""

from __future__ import annotations

from site_builder.content.plan import Kind, PlannedPage
from site_builder.results.figures import ResultsFile


class NotFoundKind(Kind):
    def generated(self, files: dict[str, ResultsFile]) -> list[PlannedPage]:
        return [PlannedPage("404.html", self, "templates/404.html", "Page not found")]

    def describe(self, p: PlannedPage, where: str) -> str | None:
        return "No page at this address: the home page and the figure index lead to everything on the site."


NOTFOUND = NotFoundKind("notfound", "404.html", False, listed=False, root="/")
