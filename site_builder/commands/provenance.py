"""Where a number comes from, and which numbers moved: ``explain KEY`` and ``changes OLD NEW``.

``explain`` builds the site into a temporary folder (as ``figures`` does) and prints one figure's text, value,
source cell, the results writer and models that compute it, the pinned inputs they read (with the SHA-256 of
``data/sources.yaml``), the pages that show it, its published text where ours differs and its text in each
vendored data version where those differ.

``changes`` compares two builds' ``figures.json``: each side a file, a built site's folder, or a git revision
of this project, which is exported with ``git archive`` into a temporary folder and built there, by that
revision's own code, with the same vendor and reference folders.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from site_builder.datatypes import dataclass
from site_builder.errors import BuildError
from site_builder.paths import Options

Log = Callable[[str], None]
Figures = dict[str, dict[str, Any]]

WRITERS = "site_builder/results/producers.py"


def cell_text(source: dict[str, Any]) -> str:
    """``file § section › row › column``: a figure's source cell, as ``figures`` prints it."""
    return f"{source['file']} § {source['section']} › {' / '.join(source['row'])} › {source['column']}"


def pages_text(pages: list[str]) -> str:
    return ", ".join("/" + p for p in pages) or "no page"


def by_key(doc: Any, where: str) -> Figures:
    """The figures of a ``figures.json`` document by key; anything else is a one-line error naming ``where``."""
    if not isinstance(doc, dict) or not isinstance(doc.get("figures"), list):
        raise BuildError(f"{where}: top level: expected a figures.json ({{'figures': [...]}}), found something else")
    out: Figures = {}
    for i, f in enumerate(doc["figures"]):
        if not isinstance(f, dict) or not isinstance(f.get("key"), str) or not isinstance(f.get("source"), dict):
            raise BuildError(f"{where}: figures[{i}]: expected a figure with a key and a source, found {f!r:.60}")
        out[f["key"]] = f
    return out


# -- explain --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Origin:
    """What computes a figure: the results writer, the models it imports, the roots of pinned inputs it reads."""

    writer: str
    where: str
    models: tuple[str, ...]
    reads: tuple[str, ...]
    also_reads: tuple[str, ...] = ()  # pinned files read for their cells (a vendored results file)


def _models_of(entry: str) -> tuple[str, ...]:
    """The project's model modules ``entry`` imports (read from the code, as the results cache does)."""
    from site_builder.cache.store import source_files

    package = Path(__file__).resolve().parent.parent
    out: list[str] = []
    for path in source_files(entry):
        try:
            rel = path.resolve().relative_to(package)
        except ValueError:
            continue
        if rel.parts[0] == "models" and rel.name != "__init__.py":
            out.append(".".join(("site_builder", *rel.with_suffix("").parts)))
    return tuple(sorted(out))


def origin_of(source_file: str) -> Origin | None:
    """The producer of a results file label (``data/<name>/results.md`` or the vendored results.md)."""
    from site_builder.results.producers import PRODUCERS, VENDORED_RESULTS, read_roots

    v = VENDORED_RESULTS
    if source_file == v.label:
        entry = v.writers[0]
        return Origin(f"{entry}.register", entry.replace(".", "/") + ".py", _models_of(entry), read_roots(v), (v.file,))
    for p in PRODUCERS:
        if source_file == p.results_label:
            entry = p.writers[0]
            roots = read_roots(p)
            return Origin(f"{entry}.build_{p.name}_results", f"{WRITERS} ({p.name!r})", _models_of(entry), roots)
    return None


def how_obtained(key: str) -> str | None:
    """For an experiment figure, how it is obtained, from the experiment results' own provenance table (§8)."""
    import fnmatch
    import re

    from site_builder.results.experiment import PROVENANCE

    before = ""  # the last row that says how in full: "as above" refers to it
    for _label, keys, how, _cell in PROVENANCE:
        said = before + how.split("as above", 1)[1] if "as above" in how else how
        for pattern in re.sub(r"\([^)]*\)", "", keys).split(","):
            if pattern.strip() and fnmatch.fnmatchcase(key, pattern.strip()):
                return said
        if "as above" not in how:
            before = how
    return None


def explain_lines(fig: dict[str, Any], pins: dict[str, dict[str, str]]) -> list[str]:
    """The lines ``explain`` prints for one figure of ``figures.json``."""
    s = fig["source"]
    lines = [
        fig["key"],
        f"  text       {fig['text']}",
        f"  value      {json.dumps(fig['value'], ensure_ascii=False)}",
        f"  file       {s['file']}",
        f"  section    {s['section']}",
        f"  row        {' / '.join(s['row'])}",
        f"  column     {s['column']}",
        f"  cell page  /{s['page']}#{s['anchor']}",
    ]
    org = origin_of(s["file"])
    if org is None:
        lines.append("  writer     unknown (not a results file of this project)")
    else:
        lines.append(f"  writer     {org.writer} (producer in {org.where})")
        lines.append(f"  models     {', '.join(org.models) or 'none'}")
        how = how_obtained(fig["key"]) if fig["key"].startswith("exp.") else None
        if how is not None:
            lines.append(f"  how        {how}")
        inputs = [(root, rel) for root in org.reads for rel in sorted(pins.get(root, {}))]
        for rel in org.also_reads:
            if ("vendor", rel) not in inputs:
                inputs.insert(0, ("vendor", rel))
        if not inputs:
            lines.append("  inputs     none read from outside the project (the model's own constants)")
        for i, (root, rel) in enumerate(inputs):
            head = "  inputs     " if i == 0 else "             "
            lines.append(f"{head}{root}/{rel}  sha256 {pins.get(root, {}).get(rel, 'not pinned')}")
    lines.append(f"  shown on   {pages_text(fig['pages'])}")
    if "published" in fig and fig["published"] != fig["text"]:
        lines.append(f"  published  {fig['published']} (ours: {fig['text']})")
    if "versions" in fig:
        lines.append(f"  versions   {' → '.join(f'{v}: {t}' for v, t in fig['versions'].items())}")
    return lines


def explain(opts: Options, key: str, log: Log = print) -> None:
    """Print where figure ``key`` comes from; an unknown key is a one-line error with the nearest keys."""
    from site_builder.commands.trial import built
    from site_builder.sources.pins import load_pins
    from site_builder.suggest import did_you_mean

    with built(opts, lambda _line: None, print_decks=False) as site:
        figures = by_key(json.loads((site / "figures.json").read_text("utf-8")), "figures.json")
    fig = figures.get(key)
    if fig is None:
        raise BuildError(f"explain: {key}: expected a registered figure key{did_you_mean(key, figures)}")
    paths = opts.paths()
    for line in explain_lines(fig, load_pins(paths.pins, paths.label(paths.pins))):
        log(line)


# -- changes --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Change:
    kind: str  # "changed", "appeared" or "disappeared"
    key: str
    old: dict[str, Any] | None
    new: dict[str, Any] | None


def compare(old: Figures, new: Figures) -> list[Change]:
    """Every figure whose text or value differs, that only ``new`` has, or that only ``old`` has, by key."""
    out: list[Change] = []
    for key in sorted(old.keys() | new.keys()):
        a, b = old.get(key), new.get(key)
        if a is None:
            out.append(Change("appeared", key, None, b))
        elif b is None:
            out.append(Change("disappeared", key, a, None))
        elif (a["text"], a.get("value")) != (b["text"], b.get("value")):
            out.append(Change("changed", key, a, b))
    return out


def change_lines(changes: list[Change], old: Figures, new: Figures) -> list[str]:
    lines: list[str] = []
    for c in changes:
        f = c.new if c.new is not None else c.old
        assert f is not None
        if c.kind == "changed":
            assert c.old is not None and c.new is not None
            what = f"{c.old['text']} → {c.new['text']}"
            if c.old["text"] == c.new["text"]:
                what += f" (value {json.dumps(c.old.get('value'))} → {json.dumps(c.new.get('value'))})"
        else:
            what = f["text"]
        cell = cell_text(f["source"])
        if c.kind == "changed" and c.old is not None and c.old["source"] != f["source"]:
            cell = f"{cell_text(c.old['source'])} → {cell}"
        lines.append(f"{c.kind}\t{c.key}\t{what}\t{cell}\t{pages_text(f['pages'])}")
    n = {k: sum(1 for c in changes if c.kind == k) for k in ("changed", "appeared", "disappeared")}
    same = len(old.keys() & new.keys()) - n["changed"]
    lines.append(
        f"{n['changed']} changed, {n['appeared']} appeared, {n['disappeared']} disappeared, {same} unchanged "
        f"({len(old)} figures before, {len(new)} after)"
    )
    return lines


def _git(project: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(project), *args], capture_output=True, check=False)


def _revision(project: Path, rev: str) -> str | None:
    """The commit ``rev`` names in the project's repository, or None."""
    if rev.startswith("-"):
        return None
    got = _git(project, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    return got.stdout.decode().strip() if got.returncode == 0 else None


NO_PDF = "--no-pdf"
"""The build's option that skips printing the decks' PDFs (site_builder/cli.py)."""


def _built_revision(opts: Options, rev: str, commit: str, work: Path, log: Log) -> Figures:
    """Export ``commit`` with git archive into ``work`` and build it there with its own code (without the decks'
    PDFs, when its code knows the option)."""
    got = _git(opts.project, "archive", "--format=tar", commit)
    if got.returncode != 0:
        msg = got.stderr.decode(errors="replace").strip().splitlines()
        raise BuildError(f"changes: {rev}: expected git archive to export it, found {msg[-1] if msg else 'an error'}")
    project = work / "project"
    with tarfile.open(fileobj=io.BytesIO(got.stdout)) as tar:
        tar.extractall(project, filter="data")
    paths = opts.paths()
    out = work / "site"
    cmd = [
        sys.executable,
        "-m",
        "site_builder",
        "build",
        "--project",
        str(project),
        "--vendor",
        str(paths.vendor),
        "--reference",
        str(paths.reference),
        "--out",
        str(out),
        "--cache",
        str(work / "cache"),
    ]
    log(f"building {rev} ({commit[:12]}) in a temporary folder")
    # Only its figures.json is read: the decks' PDFs are not printed (Chromium would take most of the build's time),
    # unless the revision's code predates --no-pdf, which its command line then refuses
    run = subprocess.run([*cmd, NO_PDF], cwd=project, capture_output=True, text=True, check=False)
    if run.returncode == 2 and f"unrecognized arguments: {NO_PDF}" in run.stderr:
        run = subprocess.run(cmd, cwd=project, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["exit status " + str(run.returncode)])[-1]
        raise BuildError(f"changes: {rev}: expected the revision to build, found {last}")
    return by_key(json.loads((out / "figures.json").read_text("utf-8")), f"{rev}: figures.json")


def load_side(opts: Options, spec: str, work: Path, log: Log) -> Figures:
    """One side of ``changes``: a figures.json, a built site's folder, or a git revision of the project."""
    path = Path(spec)
    if path.is_dir() and (path / "figures.json").is_file():
        path = path / "figures.json"
    if path.is_file():
        from site_builder.sources import reading

        text = reading.read_text(path, str(path), reading.DATA_MAX_BYTES)
        return by_key(reading.load_json(text, str(path)), str(path))
    commit = _revision(opts.project, spec)
    if commit is None:
        raise BuildError(
            f"changes: {spec}: expected a figures.json, a built site's folder or a git revision of this project, "
            "found none of these"
        )
    return _built_revision(opts, spec, commit, work, log)


def changes(opts: Options, old_spec: str, new_spec: str, log: Log = print) -> list[Change]:
    """Print every figure that changed, appeared or disappeared from ``old_spec`` to ``new_spec``, and counts."""
    with tempfile.TemporaryDirectory(prefix="site-builder-changes-") as folder:
        old = load_side(opts, old_spec, Path(folder) / "old", lambda line: print(line, file=sys.stderr))
        new = load_side(opts, new_spec, Path(folder) / "new", lambda line: print(line, file=sys.stderr))
    found = compare(old, new)
    for line in change_lines(found, old, new):
        log(line)
    return found
