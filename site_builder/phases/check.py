"""Check: every internal link and anchor of the written pages resolves, no page loads an external resource or
runs an inline script. Pages not read before are parsed once for this check and the search index; when many
pages are new, their links are read in a forked process beside the search index's extraction."""

from __future__ import annotations

import time
from typing import Any

from site_builder import processes
from site_builder.datatypes import dataclass
from site_builder.phases.collect import Collected
from site_builder.phases.context import BuildContext
from site_builder.phases.render import Rendered
from site_builder.printing import store as pdf_store

NOTE = "internal links and anchors resolve, no external resource, no inline script"


@dataclass
class Checking:
    """The link check started by the check phase, for the search phase to join."""

    scanned: int  # pages parsed now for the link check and the search index
    t0: float
    beside: processes.Beside[tuple[int, dict[str, Any]]] | None  # the link check, when beside the search index


def check(ctx: BuildContext, collected: Collected, rendered: Rendered, printed: pdf_store.Printed) -> Checking:
    """Start the link check (or run it, when it does not run beside the search index). Every link is checked, the
    decks' PDFs included; only a build told not to print (``printed.skipped``) lets its PDF links stand unprinted."""
    from site_builder.phases import scan as page_scan
    from site_builder.render.links import check_site

    t0 = time.perf_counter()
    renderer, paths = rendered.renderer, ctx.paths
    scanned = page_scan.prefill(rendered.site, renderer.digests, paths.cache) if paths.cache is not None else 0
    if scanned:
        ctx.stage("scan", t0, f"{scanned} new pages parsed once for the link check and the search index")
    t_checks = time.perf_counter()
    made_from = {p.url: p.made_from for p in collected.plan}

    # the last check's record of the same output (render/links.py check_site), when its files are carried from it
    previous = ctx.state.output.get("links") if rendered.site.old is not None else None

    def links() -> tuple[int, dict[str, Any]]:
        return check_site(
            rendered.site,
            made_from,
            cache=paths.cache,
            unprinted=frozenset(printed.written) if printed.skipped else frozenset(),
            digests=renderer.digests,
            previous=previous,
        )

    if not rendered.shared:
        n, ctx.summary.links = links()
        ctx.stage("checks", t_checks, f"{n} {NOTE}")
        return Checking(scanned, t_checks, None)
    beside = processes.Beside(links)
    ctx.children.callback(beside.cancel)
    return Checking(scanned, t_checks, beside)


def checked(ctx: BuildContext, checking: Checking) -> None:
    """The link check's verdict, when it ran beside the search index."""
    if checking.beside is not None:
        n, ctx.summary.links = checking.beside.result()
        ctx.stage("checks", checking.t0, f"{n} {NOTE} (beside the search index)")
