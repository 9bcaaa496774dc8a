"""Search: the search index of the written pages, updated from the last build's where pages changed (when the
previous output is intact), each page's extraction read from the cache when its HTML was seen before."""

from __future__ import annotations

import time

from site_builder.phases.check import Checking
from site_builder.phases.context import BuildContext
from site_builder.phases.render import Rendered


def search(ctx: BuildContext, rendered: Rendered, checking: Checking) -> None:
    from site_builder import search as index

    t0 = time.perf_counter()
    renderer, output, scanned = rendered.renderer, ctx.state.output, checking.scanned
    previous = None  # the last build's index, updated where pages changed when it can be
    if renderer.carry is not None and isinstance(output.get("search"), str):
        previous = index.Previous(ctx.paths.out, output["search"], renderer.carry.digests())
    n_files, reused = index.build_index(rendered.site, ctx.paths.cache, renderer.digests, previous)
    n_pages = sum(1 for u in renderer.digests if not u.endswith(".html"))
    extracted = f"{n_pages - reused + scanned} extracted, {reused - scanned} from the cache"
    ctx.stage("search", t0, f"{n_files} index files for {n_pages} pages ({extracted})")
