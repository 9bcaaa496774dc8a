"""Print: each deck's PDF written into the temporary output folder before the checks (so the link check sees it),
printed in Chromium from the built deck page or taken from the PDF store (site_builder/printing/store.py)."""

from __future__ import annotations

import time

from site_builder.phases.collect import Collected
from site_builder.phases.context import BuildContext
from site_builder.phases.render import Rendered
from site_builder.printing import store as pdf_store


def printing(ctx: BuildContext, collected: Collected, rendered: Rendered) -> pdf_store.Printed:
    """The decks' PDFs; with ``Options(print_decks=False)`` (the tests' in-process builds) none is printed and the
    link check is told which PDF links are left unprinted."""
    t0 = time.perf_counter()
    decks = {d.page.url: d.pdf for d in collected.series.decks}
    store = pdf_store.store_folder(ctx.opts, ctx.log) if ctx.opts.print_decks else None
    static = "site_builder/static/"  # copied whole into assets/ (render/pages.py write_static)
    assets = {f"assets/{k.removeprefix(static)}": v for k, v in ctx.state.files.items() if k.startswith(static)}
    digests, enabled = rendered.renderer.digests, ctx.opts.print_decks
    printed = pdf_store.run(rendered.site, decks, store, digests, enabled, known=assets)
    ctx.stage("print", t0, printed.note())
    ctx.summary.printed = printed.printed
    return printed
