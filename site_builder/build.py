"""The build, as a list of phases over one context (each in site_builder/phases/):

load → models → figures → collect → render → print → check → search → drift, parity → swap.

Nothing is written into the output folder until every phase passed: the site is built in a temporary folder
(over the files carried from the previous output, site_builder/cache/overlay.py) and then published into it, by
renames only. Adding a phase is one line in
:func:`_build`.
"""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from site_builder import outdir
from site_builder.cache import store as results_cache
from site_builder.cache import uptodate
from site_builder.cache.overlay import Overlay, previous_output
from site_builder.explorers import EXPLORERS
from site_builder.paths import Options, Paths
from site_builder.phases import check, collect, load, models, printing, render, search, swap, verify
from site_builder.phases.collect import RESERVED, plan_pages
from site_builder.phases.context import BuildContext, Effects, Summary, writing
from site_builder.phases.render import SITE_TITLE
from site_builder.phases.store import (
    VENDORED,
    Models,
    build_registry,
    check_drift,
    compute_all,
    load_pinned,
    pinned_digests,
    results_files,
)
from site_builder.results.producers import PRODUCERS


def build(opts: Options, log: Callable[[str], None] = print, state: uptodate.State | None = None) -> Summary:
    """Build the site into ``--out``: checked before anything is written, built in a temporary folder next
    to it and swapped in by renames only when every phase passed. SIGTERM/SIGINT stop it cleanly.

    If no input changed since the last build into ``--out`` and the folder is as that build left it, nothing
    is done (:mod:`site_builder.cache.uptodate`); ``state`` is that check when the caller already made it."""
    t_start = time.perf_counter()
    paths = opts.paths()
    # the path as given (a symbolic link is refused, not followed), before anything is written
    outdir.check_out(opts.out if opts.out is not None else paths.out, paths.protected(), project=paths.project)
    state = state if state is not None else uptodate.check(opts)
    if state.record is not None:
        uptodate.skip(opts, state.record, log)
        return Summary(state.record.pages, state.record.figures, time.perf_counter() - t_start)
    with outdir.interrupts_as_errors():
        outdir.remove_stale_tmp(paths.out)
        results_cache.forget_listings()
        results_cache.IMPORT_MEMO.load(paths.cache)
        try:
            # processes started beside the build are stopped with it; the cache keys take the source files' digests
            # from the up-to-date check
            with contextlib.ExitStack() as children, results_cache.hashed(state.files):
                summary = _build(opts, paths, log, state, children)
        except outdir.Interrupted:
            swap.remove_own_tmp(paths.out)
            raise
        results_cache.IMPORT_MEMO.save()
        uptodate.remember(opts, state, summary.pages, summary.figures, summary.output, summary.tree)
    return summary


def _build(
    opts: Options,
    paths: Paths,
    log: Callable[[str], None],
    state: uptodate.State,
    children: contextlib.ExitStack,
    effects: Effects | None = None,
) -> Summary:
    t_start = time.perf_counter()
    ctx = BuildContext(opts, paths, log, state, results_cache.ResultsCache(paths.cache), children, effects or Effects())
    loaded = load.load(ctx)
    modeled = models.figures(ctx, models.models(ctx, loaded))
    collected = collect.collect(ctx, loaded, modeled)
    tmp = ctx.effects.new_tmp(paths.out)
    try:
        carried_from = previous_output(paths.out, state.intact and bool(state.output), state.listing)
        site = Overlay(tmp, *carried_from)
        rendered = render.render(ctx, loaded, modeled, collected, site)
        printed = printing.printing(ctx, collected, rendered)
        checking = check.check(ctx, collected, rendered, printed)
        search.search(ctx, rendered, checking)
        check.checked(ctx, checking)
        verify.drift(ctx, modeled)
        verify.parity_check(ctx, collected, rendered)
        swap.publish(site, paths.out, ctx.effects.swap)
    except BaseException as error:
        try:  # the processes beside (which may be writing into the folder) stop first; a drift found wins
            children.__exit__(type(error), error, error.__traceback__)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        raise
    summary = ctx.summary
    if site.published is not None and state.tree:  # published in place: the folder's listing updated, not walked
        summary.tree = uptodate.updated_tree(state.tree, paths.out, *site.published)
    summary.output = {**rendered.renderer.output(), "search": _search_code_key(), "links": summary.links}
    swap.remember(ctx, loaded, modeled, collected, rendered)
    summary.pages = len(collected.plan)
    summary.figures = len(modeled.registry.figures)
    summary.seconds = time.perf_counter() - t_start
    log(f"built {summary.pages} pages, {summary.figures} figures in {summary.seconds:.2f} s -> {paths.out}")
    return summary


def _search_code_key() -> str:
    from site_builder import search as index

    return index.code_key()


def write_results(opts: Options, log: Callable[[str], None] = print) -> list[Path]:
    """``make results``: recompute every model (no cache read) and write data/*/results.* and the explorer cases."""
    paths = opts.paths()
    pinned = load_pinned(paths)
    models = Models(paths, pinned.digests(), pinned)
    models.cache = results_cache.ResultsCache(None)
    docs = compute_all(paths, models)
    files: list[tuple[str, str]] = []
    for p in PRODUCERS:
        files += [
            (f"data/{p.name}/results.md", docs[p.name].markdown),
            (f"data/{p.name}/results.json", docs[p.name].json_text),
        ]
    files += [(f"data/explorers/{e.name}.json", e.cases_json(docs)) for e in EXPLORERS.values()]
    written = []
    for label, text in files:
        path = paths.project / label
        with writing(label):
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        written.append(path)
        log(f"wrote {label}")
    return written


__all__ = [
    "RESERVED",
    "SITE_TITLE",
    "VENDORED",
    "Models",
    "Options",
    "Summary",
    "build",
    "build_registry",
    "check_drift",
    "compute_all",
    "load_pinned",
    "pinned_digests",
    "plan_pages",
    "results_files",
    "write_results",
]
