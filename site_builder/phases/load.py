"""Load: the basis kept by an earlier build from the same inputs (site_builder/cache/basis.py), the content pages,
and the pinned inputs verified (or their digests as the basis holds them)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from site_builder.cache import basis
from site_builder.content.pages import FrontMatter, Page, load_content
from site_builder.datatypes import dataclass
from site_builder.kinds import CONTENT_KINDS
from site_builder.phases.context import BuildContext
from site_builder.phases.store import load_pinned
from site_builder.sources.reading import links_stay_inside

if TYPE_CHECKING:
    from site_builder.sources import pins


@dataclass
class Loaded:
    """What the load phase read: the kept basis (if any), the content files and the pinned inputs."""

    kept: basis.Basis | None  # what an earlier build from the same inputs but content/ derived
    front: FrontMatter
    pages: list[Page]
    pinned: pins.Pinned | None  # None when the basis was kept (no pin is read)
    digests: list[str]  # the pinned inputs, as "root path sha256" lines


def load(ctx: BuildContext) -> Loaded:
    t0 = time.perf_counter()
    paths, state, store = ctx.paths, ctx.state, ctx.store
    kept = basis.read(store, state.basis) if state.basis and store.folder is not None else None
    front = FrontMatter(kept.front_matter if kept is not None else None)
    for folder in (paths.templates, paths.data):  # content/ is checked as it is read
        links_stay_inside(folder, folder.name, paths.project)
    # a page whose file the up-to-date check found unchanged since the basis was kept is taken as it was then
    pages = load_content(paths.content, CONTENT_KINDS, front, kept.pages if kept is not None else None, state.files)
    if kept is None:
        pinned = load_pinned(paths)
        digests = pinned.digests()
        ctx.stage("load", t0, f"{len(digests)} pinned inputs verified, {len(pages)} content pages")
        return Loaded(None, front, pages, pinned, digests)
    note = f"{len(kept.digests)} pinned inputs as verified before (unchanged), {len(pages)} content pages"
    ctx.stage("load", t0, note)
    return Loaded(kept, front, pages, None, kept.digests)
