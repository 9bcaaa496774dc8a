"""The models' outputs and what is made from them, each read from the results cache or computed: the results
documents, explorers' cases and payloads, parsed pages' references, template figure calls, results files'
sections and the vendored experiment's figures; and the results files and the figure registry made from them."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from site_builder import processes
from site_builder.cache import store as results_cache
from site_builder.cache import uptodate
from site_builder.content.decks import SlideHead, SourceRef, slide_heads
from site_builder.content.pages import Page
from site_builder.content.parse import Parsed, parse_page
from site_builder.errors import BuildError, InputError
from site_builder.explorers import EXPLORERS, Explorer
from site_builder.mdtables import MdSection, MdTable
from site_builder.paths import Paths
from site_builder.results.figures import Figure, Registry, ResultsFile, Source
from site_builder.results.producers import (
    PRODUCERS,
    VENDORED_RESULTS,
    Producer,
    ResultsText,
    inputs_from,
    produced_results,
    reads,
    vendored_results,
)
from site_builder.sources.reading import DATA_MAX_BYTES, read_text

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

    from site_builder.sources import pins

VENDORED = VENDORED_RESULTS.name


class Models:
    """The models' outputs, each read from the cache or computed (loading the inputs only if needed)."""

    def __init__(self, paths: Paths, digests: list[str], pinned: pins.Pinned | None = None) -> None:
        self.paths = paths
        self.digests = digests
        self.pinned = pinned
        self.cache = results_cache.ResultsCache(paths.cache)
        # each input is loaded when a model first needs it (through the pins, read then if not given)
        self.inputs = inputs_from(lambda: self.pinned or load_pinned(self.paths))
        self._figure_texts: str | None = None
        self._parse_code: str | None = None
        self._slides_code: str | None = None
        self._doc_digests: tuple[dict[str, ResultsText], list[str]] | None = None

    def _compute(self, p: Producer) -> str:
        try:
            return ResultsText.of(p.build(self.inputs.view(p.name, p.inputs))).to_cache()
        except BuildError:
            raise
        except (ValueError, KeyError, ZeroDivisionError) as e:
            raise BuildError(f"model {p.name}: {type(e).__name__}: {e}") from None

    def produced(self, p: Producer) -> ResultsText:
        key = results_cache.key_of(p.entries, self.digests)
        return ResultsText.from_cache(self.cache.get_or_compute(p.name, key, lambda: self._compute(p)))

    def produce_all(self) -> dict[str, ResultsText]:
        """Every results document, from the cache or computed. When more than one must be computed, they are
        shared between this process and a forked one by their rough costs: the same documents, sooner on a
        machine with a core to spare."""
        keys = {p.name: results_cache.key_of(p.entries, self.digests) for p in PRODUCERS}
        texts = {p.name: t for p in PRODUCERS if (t := self.cache.read(p.name, keys[p.name])) is not None}
        misses = [p for p in PRODUCERS if p.name not in texts]
        here, beside = processes.halves(misses, lambda p: p.cost)
        side: processes.Beside[list[str]] | None = None
        if beside and processes.can_share():
            self.inputs.load(dict.fromkeys(n for p in misses for n in p.inputs))  # before the fork: both have them
            import numpy  # noqa: F401  (both processes compute with it: imported once, before the fork)

            side = processes.Beside(lambda: [self._compute(p) for p in beside])
        else:
            here, beside = misses, []
        try:
            for p in here:
                texts[p.name] = self._compute(p)
            if side is not None:
                texts.update(zip((p.name for p in beside), side.result(), strict=True))
        finally:
            if side is not None:
                side.cancel()
        for p in PRODUCERS:
            if p in misses:
                self.cache.misses.append(p.name)
                self.cache.write(p.name, keys[p.name], texts[p.name])
            else:
                self.cache.hits.append(p.name)
        return {p.name: ResultsText.from_cache(texts[p.name]) for p in PRODUCERS}

    def _explorer_key(self, e: Explorer, docs: dict[str, ResultsText]) -> str:
        """An explorer's cache key: its module's source and the documents it reads (hashed once per build)."""
        if self._doc_digests is None or self._doc_digests[0] is not docs:
            digests = [f"{n} {hashlib.sha256(d.json_text.encode()).hexdigest()}" for n, d in sorted(docs.items())]
            self._doc_digests = (docs, digests)
        return results_cache.key_of((e.module_name,), self.digests, self._doc_digests[1])

    def explorer_cases(self, e: Explorer, docs: dict[str, ResultsText]) -> str:
        """An explorer's parity cases (cached: keyed by its module's source and the documents they come from)."""
        return self.cache.get_or_compute(f"cases-{e.name}", self._explorer_key(e, docs), lambda: e.cases_json(docs))

    def explorer_payload(self, e: Explorer, docs: dict[str, ResultsText]) -> str:
        """The data an explorer's page code draws, as the JSON text of its file in the site (cached like its
        cases)."""
        key = self._explorer_key(e, docs)

        def compute() -> str:
            return json.dumps(e.payload(docs), ensure_ascii=False, allow_nan=False, separators=(",", ":"))

        return self.cache.get_or_compute(f"payload-{e.name}", key, compute)

    def figure_texts(self, registry: Registry) -> str:
        """A SHA-256 over every figure's key and text (computed once per build)."""
        if self._figure_texts is None:
            h = hashlib.sha256()
            for f in registry.figures.values():
                h.update(f"{f.key}\0{f.text}\n".encode())
            self._figure_texts = h.hexdigest()
        return self._figure_texts

    def parsed(self, page: Page, md: MarkdownIt, registry: Registry) -> Parsed:
        """A content page and what it references (cached as JSON: keyed by its text, the parser's source and the
        figures' texts, which give the ids of headings that hold a figure). Its tokens are parsed again only if
        the page is rendered (reading them back from JSON costs what parsing does). A page with an error is never
        cached: it is parsed again."""
        if self._parse_code is None:  # the parser's source and the pinned inputs: once per build
            self._parse_code = results_cache.key_of(("site_builder.content.parse",), self.digests)
        head = f"{self._parse_code}\n{self.figure_texts(registry)}\n{page.label}\0{page.body_line}\0{page.meta_lines}\0"
        name, key = results_cache.entry_name("parse", page.label), _page_key(head, page)
        refs = self._entry(name, key, _refs_of)
        if refs is not None:
            figs, charts, terms = refs
            return Parsed(page, None, figs, charts, terms, load_tokens=lambda: parse_page(page, md).tokens)
        got = parse_page(page, md)
        self._keep(name, key, {"figs": _flat(got.figs), "charts": _flat(got.charts), "terms": _flat(got.terms)})
        return got

    def slide_heads(self, page: Page) -> list[SlideHead]:
        """A deck's slides' heads (content/decks.py slide_heads), cached as JSON: keyed by the page's text and place
        and the splitting code. A deck with an error is never cached: it is split again, and the error raised."""
        if self._slides_code is None:
            self._slides_code = results_cache.key_of(("site_builder.content.decks",), [])
        name = results_cache.entry_name("slides", page.label)
        key = _page_key(f"{self._slides_code}\n{page.label}\0{page.body_line}\0", page)
        got = self._entry(name, key, _heads_of)
        if got is not None:
            return got
        made = slide_heads(page)
        doc = [
            [s.id, s.title, s.line, _flat(s.terms), [x for r in s.sources for x in (r.doc, r.section, r.line)]]
            for s in made
        ]
        self._keep(name, key, doc)
        return made

    def _entry(self, name: str, key: str, decode: Callable[[bytes], T | None]) -> T | None:
        """A page's entry read back through ``decode`` (None: no entry, or not what this code writes)."""
        body = self.cache.read_bytes(name, key)
        return decode(body) if body is not None else None

    def _keep(self, name: str, key: str, doc: object) -> None:
        """A page's entry written as JSON (only what parsed or split without an error is kept)."""
        self.cache.write_bytes(name, key, json.dumps(doc, ensure_ascii=False).encode())

    def template_figures(self, env: Any, folder: Path, names: list[str]) -> dict[str, list[tuple[str, str]]]:
        """The literal ``fig("key")`` calls of each page template, its parents and includes (cached: keyed by
        every template file's bytes and the scanning code)."""
        from site_builder.render.templates import fig_keys

        h = hashlib.sha256()
        for label, path in uptodate.walk(str(folder), ""):
            with open(path, "rb") as f:
                h.update(f"{label}\0{hashlib.file_digest(f, 'sha256').hexdigest()}\n".encode())
        key = results_cache.key_of(("site_builder.render.templates",), [h.hexdigest()], names)

        def compute() -> str:
            scanned: dict[str, Any] = {}
            return json.dumps({n: sorted(fig_keys(env, n, scanned)) for n in names}, ensure_ascii=False)

        found = json.loads(self.cache.get_or_compute("template-figures", key, compute))
        return {n: [(k, where) for k, where in found[n]] for n in names}

    def load_sections(self, rf: ResultsFile) -> None:
        """A results file's sections and tables (cached as JSON: keyed by its text and the table parser's source)."""
        text = hashlib.sha256(rf.text.encode()).hexdigest()
        key = results_cache.key_of(("site_builder.mdtables",), [text])
        name = results_cache.entry_name("sections", rf.label)
        body = self.cache.read_bytes(name, key)
        got = _sections_of(body) if body is not None else None
        if got is not None:
            rf._sections = got  # what ResultsFile.sections would parse
            return
        doc = [[s.title, s.level, s.line, [[t.line, t.columns, t.rows] for t in s.tables]] for s in rf.sections]
        self.cache.write_bytes(name, key, json.dumps(doc, ensure_ascii=False).encode())

    def vendored_figures(self, rf: ResultsFile) -> list[list[object]]:
        """Figures the experiment model recomputes whose cells are in the experiment's own results.md."""

        def compute() -> str:
            from site_builder.results import experiment_vendored

            reg = Registry()
            experiment_vendored.register(reg, self.inputs.view(VENDORED, VENDORED_RESULTS.inputs)["experiment"], rf)
            rows = [
                [f.key, f.value, f.text, f.source.section, list(f.source.row), f.source.column]
                for f in reg.figures.values()
            ]
            return json.dumps(rows, ensure_ascii=False)

        key = results_cache.key_of(VENDORED_RESULTS.entries, self.digests, [rf.label, rf.page])
        return json.loads(self.cache.get_or_compute(VENDORED, key, compute))


Refs = list[tuple[str, str]]
T = TypeVar("T")


def _page_key(head: str, page: Page) -> str:
    """A per-page entry's key: the SHA-256 of ``head`` (the code's key and the page's place) and the page's text (as
    its digest, Page.text_digest)."""
    h = hashlib.sha256(head.encode())
    h.update(page.text_digest().encode())
    return h.hexdigest()


def _flat(pairs: Refs) -> list[str]:
    """Pairs of strings as one flat list (a parse entry's layout: read back without a Python step per pair)."""
    return [x for pair in pairs for x in pair]


def _texts(value: object) -> list[str]:
    """A list of strings, interned (a key and a "line N", shared by many pages). ValueError when it is not one."""
    if type(value) is not list:
        raise ValueError("not a list of strings")
    try:
        return list(map(sys.intern, value))  # TypeError for anything but text (JSON gives no str subclass)
    except TypeError:
        raise ValueError("not a list of strings") from None


def _pairs(value: object) -> Refs:
    """A flat list of strings, as :func:`_flat` wrote it, as pairs (interned). ValueError when it is not such a
    list."""
    strings = _texts(value)
    if len(strings) % 2:
        raise ValueError("not a flat list of pairs of strings")
    it = iter(strings)
    return list(zip(it, it, strict=False))  # one iterator twice: (s0, s1), (s2, s3), …


def _refs_of(body: bytes) -> tuple[Refs, Refs, Refs] | None:
    """A parse entry's figure, chart and term references, or None when it is not what this code writes."""
    try:
        doc = json.loads(body)
        return _pairs(doc["figs"]), _pairs(doc["charts"]), _pairs(doc["terms"])
    except (ValueError, KeyError, TypeError):
        return None


def _heads_of(body: bytes) -> list[SlideHead] | None:
    """A slides entry as the slides' heads, or None when it is not what this code writes. The tuples are made with
    ``tuple.__new__`` (what a named tuple's own constructor calls, less its Python frame): a large site's decks hold
    tens of thousands of slides, read back on every build."""
    new = tuple.__new__
    try:
        out = []
        for sid, title, line, terms, sources in json.loads(body):
            if type(sid) is not str or type(title) is not str or type(line) is not int:
                return None
            if type(terms) is not list or type(sources) is not list:
                return None
            heads: tuple[SourceRef, ...] = ()
            if sources:  # most slides name none, and no term: no pass over an empty list
                refs = _texts(sources)
                if len(refs) % 3:
                    return None
                triples = iter(refs)
                heads = tuple([new(SourceRef, r) for r in zip(triples, triples, triples, strict=False)])
            out.append(new(SlideHead, (sid, title, line, tuple(_pairs(terms)) if terms else (), heads)))
        return out or None
    except (ValueError, TypeError):
        return None


def _strings(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ValueError("not a list of strings")
    return value


def _sections_of(body: bytes) -> list[MdSection] | None:
    """A sections entry as parsed sections, or None when it is not what this code writes."""
    try:
        out = []
        for title, level, line, tables in json.loads(body):
            if not isinstance(title, str) or type(level) is not int or type(line) is not int:
                return None
            section = MdSection(title, level, line)
            for t_line, columns, rows in tables:
                if type(t_line) is not int:
                    return None
                section.tables.append(MdTable(t_line, _strings(columns), [_strings(r) for r in rows]))
            out.append(section)
        return out
    except (ValueError, TypeError):
        return None


def load_pinned(paths: Paths) -> pins.Pinned:
    """The verified pins; every file the build reads from the vendor and reference folders is among them."""
    from site_builder.sources import pins  # a build that reuses the basis (site_builder/cache/basis.py) reads no pins

    roots = pins.Roots(paths.vendor, paths.reference)
    return pins.load_pinned(paths.pins, roots, reads(), paths.label(paths.pins))


def pinned_digests(paths: Paths) -> list[str]:
    return load_pinned(paths).digests()


def compute_all(paths: Paths, models: Models) -> dict[str, ResultsText]:
    return models.produce_all()


def check_drift(paths: Paths, docs: dict[str, ResultsText], models: Models | None = None) -> None:
    """The committed results and explorer cases must equal what the models write now, character for character."""
    expected: list[tuple[str, str]] = []
    for p in PRODUCERS:
        expected += [(f"data/{p.name}/results.md", docs[p.name].markdown)]
        expected += [(f"data/{p.name}/results.json", docs[p.name].json_text)]
    for e in EXPLORERS.values():
        cases = models.explorer_cases(e, docs) if models is not None else e.cases_json(docs)
        expected.append((f"data/explorers/{e.name}.json", cases))
    for label, want in expected:
        path = paths.project / label
        if not os.path.lexists(path):
            raise InputError(label, "file", "the models' output (run `make results`)", "no such file")
        have = read_text(path, label, DATA_MAX_BYTES)
        if have != want:
            a, b = have.splitlines(), want.splitlines()
            n = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            found = a[n][:70] if n < len(a) else "end of file"
            raise InputError(label, f"line {n + 1}", "what the model writes now (run `make results`)", repr(found))


def results_files(paths: Paths, pinned: pins.Pinned | None = None) -> dict[str, ResultsFile]:
    """The results files figures point at: the vendored results.md (read through its pin when ``pinned``) and
    each producer's committed results.md, by label. Always from the declarations, never from a cache."""
    vend = vendored_results(paths.vendor)
    if pinned is not None:
        vendor = pinned.folder("vendor")
        vend.read = lambda: vendor.read_text(VENDORED_RESULTS.file)
    files = {vend.label: vend}
    for p in PRODUCERS:
        rf = produced_results(paths.project, p)
        rf.series = p.series
        files[rf.label] = rf
    return files


def build_registry(
    paths: Paths, models: Models, docs: dict[str, ResultsText]
) -> tuple[Registry, dict[str, ResultsFile]]:
    registry = Registry()
    files = results_files(paths, models.pinned)
    vend = files[VENDORED_RESULTS.label]
    for key, value, text, section, row, column in models.vendored_figures(vend):
        registry.add(Figure(key, value, text, Source(vend.label, section, tuple(row), column, vend.page)))  # type: ignore[arg-type]
    for p in PRODUCERS:
        rf = files[f"data/{p.name}/results.md"]
        for c in docs[p.name].keyed_cells():
            registry.add(Figure(c.key, c.value, c.text, Source(rf.label, c.section, (c.row,), c.column, rf.page)))
    return registry, files


def drift_checked(paths: Paths, docs: dict[str, ResultsText], models: Models) -> tuple[list[str], int]:
    """:func:`check_drift`; returns the cache entries it computed (explorers' cases) and how many it read."""
    misses, hits = len(models.cache.misses), len(models.cache.hits)
    check_drift(paths, docs, models)
    return models.cache.misses[misses:], len(models.cache.hits) - hits


def cases_note(counts: tuple[list[str], int]) -> str:
    return f"{len(EXPLORERS)} explorers' cases ({len(counts[0])} computed, {counts[1]} from cache)"
