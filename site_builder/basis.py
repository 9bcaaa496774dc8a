"""The site's basis: what a build derives from every input but the content pages, kept for the next build.

Most edits touch only ``content/``. A build whose code, templates, data, vendored and reference files and
options are exactly those of an earlier build that passed every check does not need to redo what depends on
them alone:

- the pinned inputs' digests (verified then against ``data/sources.yaml``), and the pins the pages show;
- every figure with its results cell (checked then against the cells; the results documents and explorer
  cases were compared then with the committed files: no drift);
- the results files with their parsed sections;
- the explorers' payloads (JSON text and digest), the figures the page templates name, and the part of the
  method page's records that no page changes (pins, models, explorers, published-against-ours tables);
- the content files' front matter as parsed, by the digest of its text (YAML is parsed, and PyYAML imported,
  only for front matter that changed).

They are stored as one entry of the results cache, keyed by :attr:`site_builder.uptodate.State.basis` (a
SHA-256 over those inputs, the options, Python and the installed distributions), written only after a build
passed every phase, and read back through the cache's digest check: a damaged entry is ignored and the
build does the work again. What depends on the pages (which pages use a figure, the glossary's back-links,
the navigation) is never in it.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field, replace
from typing import Any

from site_builder.cache import ResultsCache
from site_builder.figures import ResultsFile, Row

ENTRY = "basis"


@dataclass
class Basis:
    digests: list[str]  # the pinned inputs, as "root path sha256" lines
    pins: dict[str, str]  # results file label -> "vendor path sha256" of a vendored one
    figures: dict[str, Row]  # figures.Figures.rows_of the registry
    files: dict[str, ResultsFile]  # with their text and sections loaded
    figure_texts: str  # SHA-256 over every figure's key and text (part of the parse cache's key)
    figures_digest: str  # render/keys.figures_digest (part of every page's render key)
    records: dict[str, Any]  # the method page's records that no page changes
    payloads: dict[str, tuple[str, str]] = field(default_factory=dict)  # explorer -> (JSON text, SHA-256)
    template_figures: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    front_matter: dict[str, Any] = field(default_factory=dict)  # parsed front matter by its text's SHA-256


def kept_file(rf: ResultsFile) -> ResultsFile:
    """``rf`` as stored: its text and sections, not how it was read (a pinned reader does not pickle)."""
    copy = ResultsFile(rf.label, rf.path, rf.page, rf.title, rf.series)
    copy.__dict__["text"] = rf.text
    copy.__dict__["sections"] = rf.sections
    return copy


def read(cache: ResultsCache, key: str) -> Basis | None:
    """The basis stored under ``key``, or None (none, damaged, or from another version of this code)."""
    body = cache.read_bytes(ENTRY, key)
    if body is None:
        return None
    try:
        got = pickle.loads(body)  # our own entry: its digest line was checked
    except Exception:
        return None
    return got if isinstance(got, Basis) else None


def write(cache: ResultsCache, key: str, basis: Basis) -> None:
    """Store ``basis`` (best effort, as every cache entry: a failure only costs the next build time)."""
    stored = replace(basis, files={label: kept_file(rf) for label, rf in basis.files.items()})
    cache.write_bytes(ENTRY, key, pickle.dumps(stored, protocol=pickle.HIGHEST_PROTOCOL))
