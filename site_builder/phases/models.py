"""Models and figures: the results documents (from the cache or computed), the drift check of the committed
results and explorer cases (beside the build when a core is spare), and every figure checked against its cell.
When the basis was kept, all of it holds as an earlier build from the same inputs found it."""

from __future__ import annotations

import time

from site_builder import outdir, processes
from site_builder.datatypes import dataclass
from site_builder.errors import BuildError
from site_builder.phases.context import BuildContext
from site_builder.phases.load import Loaded
from site_builder.phases.store import (
    Models,
    build_registry,
    cases_note,
    compute_all,
    drift_checked,
    load_pinned,
    results_files,
)
from site_builder.results.figures import Figures, Registry, ResultsFile
from site_builder.results.producers import PRODUCERS, ResultsText

AGAIN = "as an earlier build from the same inputs (all but content/) found them"


@dataclass
class Modeled:
    """The models phase's results: the results documents, their figures and files, the drift check."""

    models: Models
    registry: Registry
    files: dict[str, ResultsFile]
    docs: dict[str, ResultsText] | None  # None when the basis was kept (computed only if something needs them)
    drift: processes.Beside[tuple[list[str], int]] | None = None  # the drift check, when it runs beside

    def documents(self, ctx: BuildContext) -> dict[str, ResultsText]:
        """The results documents, when the basis lacks something made from them (an explorer no page showed)."""
        if self.docs is None:
            self.models.pinned = self.models.pinned or load_pinned(ctx.paths)
            self.docs = compute_all(ctx.paths, self.models)
        return self.docs


def models(ctx: BuildContext, loaded: Loaded) -> Modeled:
    t0 = time.perf_counter()
    m = Models(ctx.paths, loaded.digests, loaded.pinned)
    m.cache = ctx.store
    if loaded.kept is not None:
        # every input but content/ is as at a build that passed every check: its figures and verdicts hold
        registry, files = Registry(Figures(loaded.kept.figures)), results_files(ctx.paths)
        m._figure_texts = loaded.kept.figure_texts
        ctx.stage("models", t0, f"{len(PRODUCERS)} results documents, no drift, {AGAIN}")
        return Modeled(m, registry, files, None)
    docs = compute_all(ctx.paths, m)
    n_docs = f"{len(docs)} results documents ({len(m.cache.misses)} computed, {len(m.cache.hits)} from cache)"
    done = Modeled(m, Registry(), {}, docs)
    if _checked_before(ctx):
        ctx.stage("models", t0, f"{n_docs}, no drift (inputs as at the last build)")
    elif processes.can_share():
        # the explorers' cases are computed and every committed file compared in a forked process while this
        # one renders the site, which is swapped in only if that found no drift
        done.drift = _drift_beside(ctx, docs, m)
        ctx.stage("models", t0, f"{n_docs}; the drift check runs beside")
    else:
        cases = drift_checked(ctx.paths, docs, m)
        ctx.stage("models", t0, f"{n_docs}, {cases_note(cases)}, no drift")
    return done


def _checked_before(ctx: BuildContext) -> bool:
    """The checks read only the code, data/ and the pinned inputs: the same files as the last successful build
    into --out read means the same verdict, so they are not run again."""
    return ctx.state.unchanged(*(f"{d}/" for d in ("site_builder", "data", "vendor", "reference")))


def _drift_beside(
    ctx: BuildContext, docs: dict[str, ResultsText], m: Models
) -> processes.Beside[tuple[list[str], int]]:
    drift = processes.Beside(lambda: drift_checked(ctx.paths, docs, m))
    ctx.children.callback(drift.cancel)

    def drift_first(kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> None:
        """A later phase failed: if the committed files drifted, that is the error to report (it is usually the
        cause), as when the drift check ran first."""
        if isinstance(error, BuildError) and not isinstance(error, outdir.Interrupted):
            drift.result()

    ctx.children.push(drift_first)
    return drift


def figures(ctx: BuildContext, modeled: Modeled) -> Modeled:
    """Every figure registered from the results documents, each checked against its cell (once per inputs)."""
    t0 = time.perf_counter()
    if modeled.docs is None:  # the basis was kept: its figures hold
        ctx.stage("figures", t0, f"{len(modeled.registry.figures)} figures equal their results cells, {AGAIN}")
    else:
        m = modeled.models
        modeled.registry, modeled.files = build_registry(ctx.paths, m, modeled.docs)
        for rf in modeled.files.values():
            m.load_sections(rf)
        before = _checked_before(ctx)
        checked = len(modeled.registry.figures) if before else modeled.registry.check_cells(modeled.files)
        again = " (inputs as at the last build)" if before else ""
        ctx.stage("figures", t0, f"{checked} figures equal their results cells{again}")
    ctx.summary.computed = list(modeled.models.cache.misses)
    return modeled
