"""Render: every page written into the temporary output folder, from the render cache when its key (made from
every object the renderer is given, site_builder/cache/keys.py) was seen before, with the static files, the
downloads, the sitemap and the figure list."""

from __future__ import annotations

import hashlib
import io
import json
import time
from pathlib import Path
from typing import Any

from site_builder import processes
from site_builder.cache.overlay import Overlay
from site_builder.content.plan import PlannedPage, navigation
from site_builder.datatypes import dataclass
from site_builder.phases.collect import Collected
from site_builder.phases.context import BuildContext, writing
from site_builder.phases.load import Loaded
from site_builder.phases.models import Modeled
from site_builder.series import SERIES, SITE_TITLE

RENDER_SHARED_FROM = 4  # pages to render (not from the cache) from which half are rendered in another process


@dataclass
class Rendered:
    """The pages written by the render phase, over the files carried from the previous output."""

    site: Overlay  # the files written into the temporary output folder, over those carried from the previous output
    renderer: Any  # render.pages.PageRenderer, holding what was written
    shared: bool  # some pages were rendered in a forked process (their links are read beside the index)

    @property
    def tmp(self) -> Path:
        """The temporary output folder (the files written anew)."""
        return self.site.new

    @property
    def figure_list(self) -> Path:
        """figures.json as written (read back when checked: a large site's list is tens of MB, not held between)."""
        return self.site.path("figures.json")


def render(ctx: BuildContext, loaded: Loaded, modeled: Modeled, collected: Collected, site: Overlay) -> Rendered:
    from site_builder.render import extras

    t0 = time.perf_counter()
    tmp = site.new
    renderer = _renderer(ctx, loaded, modeled, collected, site)
    with writing(f"--out {ctx.paths.out}"):
        from site_builder.cache import keys

        plan = collected.plan
        with keys.remembering():  # before any page is rendered: the objects the keys read do not change inside
            owns = _own_keys(ctx, modeled, collected, renderer)
            theirs = _shared_out(plan, renderer, owns)
        render_side: processes.Beside[Any] | None = None
        if theirs:  # half the pages to render are rendered in a forked process, writing into the same folder
            render_side = processes.Beside(lambda: renderer.render_part(theirs, owns))
            ctx.children.callback(render_side.cancel)
        shared = {p.url for p in theirs}
        for p in plan:
            if p.url not in shared:
                renderer.render(p, owns.get(p.url))
            if p.parsed is not None:  # rendered here or in the other process: its tokens are not read again
                p.parsed.release(collected.md)
        if render_side is not None:
            renderer.merge_part(render_side.result(), [p.url for p in plan])
        state = ctx.state
        renderer.write_static(unchanged=state.unchanged("site_builder/static/"))
        renderer.write_downloads(modeled.files, unchanged=state.unchanged("data/"))
        base_url = extras.site_url(ctx.opts.site_url)
        site.write("sitemap.xml", extras.sitemap(list(renderer.titles), base_url).encode("utf-8"))
        if not _carry_figure_files(renderer):
            listing, cards = _figure_files(modeled, renderer)
            (tmp / "figures.json").write_bytes(listing)
            for path, text in cards.items():
                (tmp / path).parent.mkdir(parents=True, exist_ok=True)
                (tmp / path).write_text(text, "utf-8")
        _write_payloads(site, collected)
    reused = f" ({len(renderer.reused)} unchanged, from the cache)" if renderer.reused else ""
    ctx.stage("render", t0, f"{len(plan)} pages{reused}")
    return Rendered(site, renderer, bool(theirs))


def _renderer(ctx: BuildContext, loaded: Loaded, modeled: Modeled, collected: Collected, site: Overlay) -> Any:
    from site_builder.cache.carry import Carry
    from site_builder.render.pages import PageRenderer

    plan, state = collected.plan, ctx.state
    nav = navigation(plan, {k: (s.title, s.home) for k, s in SERIES.items()})
    renderer = PageRenderer(collected.env, collected.md, site.new, modeled.registry, nav, SITE_TITLE)
    renderer.term_links = collected.series.term_links()
    renderer.figures_digest = collected.figures_digest
    renderer.titles = {p.url: p.title for p in plan if p.kind.listed}
    renderer.series_titles = {k: s.title for k, s in SERIES.items()}
    renderer.files = modeled.files
    pinned = modeled.models.pinned
    if loaded.kept is not None:
        renderer.pins = loaded.kept.pins
    elif pinned is not None:
        vendor_pins = pinned.pins.get("vendor", {})
        renderer.pins = {
            rf.label: f"vendor {rel} {vendor_pins[rel]}"
            for rf in modeled.files.values()
            if rf.label.startswith("vendor/") and (rel := rf.label.removeprefix("vendor/")) in vendor_pins
        }
    if site.old is not None:
        renderer.carry = Carry(site, state.output)
    return renderer


def _own_keys(ctx: BuildContext, modeled: Modeled, collected: Collected, renderer: Any) -> dict[str, str]:
    """Each page's own key (keys.own_key: the code and inputs, its planned page), when the
    inputs were hashed (else no page is reused). The site-wide values each page reads join its key as they are
    read (render/pages.py ``Shared``)."""
    from site_builder.cache import keys

    state, models = ctx.state, modeled.models
    if not state.files or models.cache.folder is None:
        return {}
    renderer.cache = models.cache
    # every input but the content pages and glossary entries (what they hold is in the objects pages read) and the
    # static files (copied as they are: no page holds their bytes; the method page lists the vendored ones'
    # digests, and that list is in its own key)
    code = [
        (k, v)
        for k, v in state.files.items()
        if not (k.startswith("content/") and k.endswith(".md")) and not k.startswith("site_builder/static/")
    ]
    renderer.code = hashlib.sha256(json.dumps([code, ctx.opts.site_url]).encode()).hexdigest()
    return {p.url: keys.own_key(renderer.code, p) for p in collected.plan}


def _write_payloads(site: Overlay, collected: Collected) -> None:
    """Each explorer's payload that some page shows, as its file (Explorer.data_file): the pages name it in their
    chart-scripts block and site.js fetches it with the explorer's code, so a payload is held once in the site
    (on a large site it was a seventh of the pages' bytes, one copy per page showing it)."""
    from site_builder.explorers import EXPLORERS

    for name in collected.charts:
        site.write(EXPLORERS[name].data_file, collected.explorer_data[name].encode("utf-8"))


def _carry_figure_files(renderer: Any) -> bool:
    """figures.json and the number cards' files carried from the previous output, when its build wrote the figure index
    under this build's key for it: all they hold is what that page read (see :func:`_figure_files`), so they are the
    bytes this build would write. False, with nothing linked, otherwise."""
    carry, key = renderer.carry, renderer.keys.get("figures/")
    if carry is None or not key or not carry.has_page("figures/", key):
        return False
    from site_builder.render.figure_cards import FOLDER

    cards = carry.site.files_under(FOLDER)
    return bool(cards) and carry.files(["figures.json", *cards])


def _figure_files(modeled: Modeled, renderer: Any) -> tuple[bytes, dict[str, str]]:
    """figures.json's bytes (made once, as bytes: a large site's list is tens of MB, each copy of it counts) and the
    number cards' files (render/figure_cards.py), made in one pass over the figure list's entries when either is
    not in the cache."""
    from site_builder.render.figure_cards import Cards, files_of

    made: list[tuple[bytes, dict[str, str]]] = []

    def both() -> tuple[bytes, dict[str, str]]:
        if not made:
            # the bytes json.dumps(registry.to_json(files)) gives, written a figure at a time (not all as objects,
            # text and bytes at once)
            out, cards = io.BytesIO(), Cards()
            out.write(b'{"figures":[')
            for i, entry in enumerate(modeled.registry.figure_entries(modeled.files)):
                if i:
                    out.write(b",")
                out.write(json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
                cards.add(entry)
            out.write(b"]}")
            made.append((out.getvalue(), cards.files()))
        return made[0]

    def card_bytes() -> bytes:
        return json.dumps(both()[1], ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    # all they hold (the figures, the pages using them, the files) the figure index page read: in that page's key
    index_key = renderer.keys.get("figures/")
    if not index_key:
        return both()
    cache = modeled.models.cache
    listing = cache.get_or_compute_bytes("figures-json", index_key, lambda: both()[0])
    cards = files_of(cache.get_or_compute_bytes("figure-cards", index_key, card_bytes))
    return listing, cards if cards is not None else both()[1]  # an entry not as this code writes it: made again


def _shared_out(plan: list[PlannedPage], renderer: Any, owns: dict[str, str]) -> list[PlannedPage]:
    """The pages a forked process renders: about half the work of the pages not in the cache (their sources'
    sizes as the measure), or none when there are few of them or no process to spare."""
    todo = [p for p in plan if not renderer.cached(p, owns.get(p.url))]
    if len(todo) < RENDER_SHARED_FROM or not processes.can_share():
        return []

    def size(p: PlannedPage) -> int:
        if p.parsed is not None:
            return len(p.parsed.page.body)
        return len(p.results.text) if p.results is not None else 20_000

    return processes.halves(todo, size)[1]
