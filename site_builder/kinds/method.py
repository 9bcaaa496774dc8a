"""The method page (``kind: method``): the build's records (inputs, pins, figure counts)."""

from __future__ import annotations

from typing import Any

from site_builder.content.plan import PlannedPage
from site_builder.kinds.method_records import figures_shown
from site_builder.kinds.page import ContentKind
from site_builder.render.pages import Rendering
from site_builder.results.figures import Registry, ResultsFile


class MethodKind(ContentKind):
    def collect(self, p: PlannedPage, fixed: dict[str, Any], registry: Registry, files: dict[str, ResultsFile]) -> None:
        p.extra["records"] = {**fixed, "figures": figures_shown(registry, files)}

    def context(self, p: PlannedPage, r: Rendering) -> dict[str, Any]:
        return {**super().context(p, r), "records": p.extra["records"]}


METHOD = MethodKind("method", "method.html", True)
