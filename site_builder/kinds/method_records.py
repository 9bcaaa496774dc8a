"""The build's own records, for the method page: what is pinned, what computes what, what is checked.

Nothing here is typed: the pins come from data/sources.yaml (as verified this build), the models from
the producers and the results cache's source scan, the figures from the registry, the explorers from
their registry and committed parity cases, and the published-against-ours verdicts from the results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from site_builder import static_assets
from site_builder.cache import store as cache
from site_builder.explorers import EXPLORERS, case_count
from site_builder.results.figures import Registry, ResultsFile
from site_builder.results.producers import PRODUCERS

PUBLISHED_SECTIONS = {"analysis": "7.", "simulation": "11."}


def figures_shown(registry: Registry, files: dict[str, ResultsFile]) -> list[dict[str, Any]]:
    """Per results file, its figures and how many of them a page shows (the part of the records pages change)."""
    counts = registry.counts_by_file()
    rows = []
    for label, rf in files.items():
        figures, shown = counts.get(label, (0, 0))
        rows.append({"file": label, "page": rf.page, "figures": figures, "shown": shown})
    return rows


def fixed_records(
    project: Path, digests: list[str], registry: Registry, files: dict[str, ResultsFile]
) -> dict[str, Any]:
    """The records no content page changes: pins, browser libraries, models, explorers, published tables."""
    pins = []
    for line in digests:
        root, rel, digest = line.split(" ", 2)
        pins.append({"root": root, "path": rel, "sha256": digest})
    browser = []
    for line in (static_assets.VENDOR / static_assets.SUMS).read_text(encoding="utf-8").splitlines():
        digest, _, name = line.partition("  ")
        browser.append({"path": f"site_builder/static/vendor/{name}", "sha256": digest})
    models = []
    for p in PRODUCERS:
        sources = sorted({f for e in p.entries for f in cache.source_files(e)})
        models.append(
            {
                "name": p.name,
                "file": f"data/{p.name}/results.md",
                "page": p.page,
                "entries": list(p.writers),
                "sources": len(sources),
                "figures": sum(1 for f in registry.figures.values() if f.source.file == f"data/{p.name}/results.md"),
            }
        )
    explorers = []
    for e in EXPLORERS.values():
        path = project / "data" / "explorers" / f"{e.name}.json"
        n = case_count(path.read_text(encoding="utf-8")) if path.is_file() else 0
        explorers.append({"name": e.name, "port": e.scripts[0], "page_code": e.scripts[1], "cases": n})
    published = []
    for name, prefix in PUBLISHED_SECTIONS.items():
        rf = files.get(f"data/{name}/results.md")
        if rf is None:
            continue
        for s in rf.sections:
            if not s.title.startswith(prefix):
                continue
            for t in s.tables:
                if "Reproduced" not in t.columns:
                    continue
                i = t.columns.index("Reproduced")
                yes = sum(1 for r in t.rows if r[i].strip().lower().startswith("yes"))
                published.append(
                    {
                        "file": rf.label,
                        "section": s.title,
                        "page": rf.page,
                        "anchor": s.title,
                        "rows": len(t.rows),
                        "yes": yes,
                    }
                )
    return {
        "pins": pins,
        "browser": browser,
        "models": models,
        "total_figures": len(registry.figures),
        "explorers": explorers,
        "published": published,
    }
