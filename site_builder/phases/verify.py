"""The last checks before the swap: the drift check's verdict (when it ran beside the build), and the parity
check: whatever the caches held, every figure written equals its cell in the results files on disk."""

from __future__ import annotations

import time

from site_builder.phases import parity
from site_builder.phases.collect import Collected
from site_builder.phases.context import BuildContext
from site_builder.phases.models import Modeled
from site_builder.phases.render import Rendered
from site_builder.phases.store import cases_note


def drift(ctx: BuildContext, modeled: Modeled) -> None:
    if modeled.drift is not None:
        t0 = time.perf_counter()
        cases = modeled.drift.result()
        ctx.summary.computed += cases[0]
        ctx.stage("drift", t0, f"{cases_note(cases)}: results and cases equal the committed files, no drift")


def parity_check(ctx: BuildContext, collected: Collected, rendered: Rendered) -> None:
    t0 = time.perf_counter()
    plan, renderer = collected.plan, rendered.renderer
    unchanged_list = renderer.carry is not None and renderer.carry.same_file("figures.json", rendered.figure_list)
    with open(rendered.figure_list, encoding="utf-8") as figure_list:  # read a figure at a time
        shown = parity.check_built(
            ((p.url, renderer.html(p.url)) for p in plan if p.url in renderer.written),
            None if unchanged_list else figure_list,
            parity.Cells(ctx.paths.project, ctx.paths.vendor),
        )
    carried = len(plan) - sum(1 for p in plan if p.url in renderer.written)
    note = f"{shown} figures written equal their cells in the results files on disk ({carried} pages carried)"
    ctx.stage("parity", t0, note)
