"""What every phase of the build is given: the paths, the options, the log, the cache, the up-to-date state,
the processes started beside the build, the timings, and the effects (how the output is written and swapped in)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import field
from pathlib import Path
from typing import Any

from site_builder import outdir
from site_builder.cache import uptodate
from site_builder.cache.store import ResultsCache
from site_builder.datatypes import dataclass
from site_builder.errors import BuildError
from site_builder.paths import Options, Paths


@dataclass
class Summary:
    """What a build did, for its last lines and the up-to-date record."""

    pages: int = 0
    figures: int = 0
    seconds: float = 0.0
    stages: list[tuple[str, float, str]] = field(default_factory=list)
    computed: list[str] = field(default_factory=list)  # models recomputed (cache misses)
    output: dict[str, Any] = field(default_factory=dict)  # what was written (uptodate.LastBuild.output)
    printed: list[str] = field(default_factory=list)  # the decks' PDFs printed in Chromium (not from the store)
    tree: str | None = None  # the output folder's uptodate.tree_digest, when known without listing it
    links: dict[str, Any] = field(default_factory=dict)  # the link check's record (render/links.py check_site)


@contextlib.contextmanager
def writing(label: str) -> Iterator[None]:
    """An OSError while writing (a full disk, a read-only folder…) as one line naming what was written."""
    try:
        yield
    except OSError as e:
        reason = (e.strerror or type(e).__name__).lower()
        where = f" ({e.filename})" if e.filename else ""
        raise BuildError(f"{label}: write: expected room to write{where}, found {reason}") from None


@dataclass
class Effects:
    """What the build does to the world outside its temporary folder, injected so that a caller (a test, a
    dry run) may replace it: make the temporary output folder, and swap it in for ``--out``."""

    new_tmp: Callable[[Path], Path] = outdir.new_tmp
    swap: Callable[[Path, Path], None] | None = None  # None: site_builder.phases.swap.swap


@dataclass
class BuildContext:
    """What every phase takes: the options and paths, the log, the inputs' state, the cache and the effects."""

    opts: Options
    paths: Paths
    log: Callable[[str], None]
    state: uptodate.State
    store: ResultsCache
    children: contextlib.ExitStack  # processes started beside the build stop with it
    effects: Effects = field(default_factory=Effects)
    summary: Summary = field(default_factory=Summary)

    def stage(self, name: str, t0: float, note: str) -> None:
        """Log one phase's timing (from ``t0``, a ``time.perf_counter()``) as every build prints it."""
        dt = time.perf_counter() - t0
        self.summary.stages.append((name, dt, note))
        self.log(f"{name:<8} {dt:6.2f} s  {note}")
