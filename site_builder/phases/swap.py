"""Swap: the site built in the temporary folder becomes ``--out`` by renames only (its changed files renamed into it,
or the whole folder swapped in); and the basis of this build is kept for the next one (site_builder/cache/basis.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

from site_builder import outdir
from site_builder.cache import basis
from site_builder.cache.overlay import Overlay
from site_builder.phases.collect import Collected
from site_builder.phases.context import BuildContext
from site_builder.phases.load import Loaded
from site_builder.phases.models import Modeled
from site_builder.phases.render import Rendered
from site_builder.results.figures import Figures


def remove_own_tmp(out: Path) -> None:
    """Remove this process's temporary folders next to ``out`` (an interrupt may land between their making
    and the ``try`` that removes them)."""
    prefix = f".{out.name}.tmp-{os.getpid()}-"
    with contextlib.suppress(OSError):
        for entry in os.scandir(out.parent):
            if entry.name.startswith(prefix) and entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)


_SIGNALS = {s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGINT", None)) if s is not None}


@contextlib.contextmanager
def _held(out: Path) -> Iterator[None]:
    """SIGTERM/SIGINT held back while the block changes ``out``; a signal that arrived meanwhile is raised as soon as
    it is done (the new site is then in place)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if old is not None:
            try:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)  # a pending signal's handler runs here
            except outdir.Interrupted as e:
                e.args = (str(e).replace("nothing was written", f"the new site was already in place in {out}"),)
                raise


def swap(tmp: Path, out: Path) -> None:
    """Replace ``out`` by ``tmp`` with renames only, SIGTERM/SIGINT held back meanwhile: a signal between the
    two renames would leave the previous site under its temporary ``.old`` name."""
    with _held(out):
        outdir.swap_in(tmp, out)


def publish(site: Overlay, out: Path, swap_in: Callable[[Path, Path], None] | None = None) -> None:
    """Make ``out`` the site just built (site_builder/cache/overlay.py): its new files renamed into ``out`` when few
    changed, else the whole folder swapped in by ``swap_in`` (default :func:`swap`); SIGTERM/SIGINT held back."""
    with _held(out):
        site.publish(out, swap_in or swap)


def remember(ctx: BuildContext, loaded: Loaded, modeled: Modeled, collected: Collected, rendered: Rendered) -> None:
    """Keep what this build derived from every input but content/ for the next build (only after every phase
    passed)."""
    kept, models, store = loaded.kept, modeled.models, ctx.store
    if store.folder is None or not ctx.state.basis:
        return
    made = basis.Basis(
        loaded.digests,
        rendered.renderer.pins,
        Figures.rows_of(modeled.registry.figures),
        models.figure_texts(modeled.registry),
        collected.figures_digest,
        collected.fixed,
        {
            **(kept.payloads if kept is not None else {}),
            **{n: collected.explorer_data[n] for n in collected.charts},
        },
        {**(kept.template_figures if kept is not None else {}), **collected.template_figs},
        loaded.front.used,
        {
            page.label: (page.file_digest, page.body_line, loaded.front.of_label[page.label])
            for page in loaded.pages
            if page.file_digest is not None and page.label in loaded.front.of_label
        },
    )
    basis.write(store, ctx.state.basis, made, kept)
