"""The vendored DeMo fixed-band experiment: results.json, results.md and the 32 runs' eval curves.

Everything is validated on load; a problem raises an InputError naming the file and the key path
or line number.
"""

from __future__ import annotations

import re
from pathlib import Path

from site_builder.datatypes import dataclass
from site_builder.errors import InputError, describe
from site_builder.models.experiment import RUN_NAME, VARIANTS, EvalPoint, Run
from site_builder.sources import reading
from site_builder.sources.pins import Folder, Pinned
from site_builder.sources.validate import Reader

EXPERIMENT = "demo-fixed-band"
RESULTS_JSON = f"{EXPERIMENT}/tinystories-gpu/results.json"
RESULTS_MD = f"{EXPERIMENT}/tinystories-gpu/results.md"
CURVES = f"{EXPERIMENT}/curves"
INVESTIGATION = f"{EXPERIMENT}/docs/optics_investigation.md"
BAND_SHARE_ROW = "Band share of delta energy"  # the note's §2 table: the row read, by step
# The experiment's earlier version (before the optics repair), read when it is vendored and pinned: its
# results.json names the run groups it had; their curves are the ones vendored (the repair only added runs).
PREVIOUS = "05a68ae"
PREVIOUS_JSON = f"{EXPERIMENT}/tinystories-gpu/results.{PREVIOUS}.json"
PREVIOUS_MD = f"{EXPERIMENT}/tinystories-gpu/results.{PREVIOUS}.md"
PREVIOUS_GLOB = f"{EXPERIMENT}/tinystories-gpu/results.{PREVIOUS}.*"
COMPLETED_RUNS = re.compile(r"from (\d+) completed runs")
# Every file load() reads, as root/pattern (glob patterns: every match is read); `pin` pins them. results.md is not among
# them: the vendored results page reads it (declared with it, in site_builder/results/producers.py).
READS = tuple(f"vendor/{x}" for x in (RESULTS_JSON, PREVIOUS_GLOB, f"{CURVES}/*.jsonl", INVESTIGATION))


@dataclass(frozen=True)
class ResultRow:
    group: str
    label: str
    variant: str
    seeds: int
    final_val: float
    final_val_sd: float
    payload_per_step: int
    payload_int64_per_step: int
    wire_per_step: float
    ratio_vs_dense: float
    reached: str


@dataclass(frozen=True)
class ExperimentData:
    target: float
    rows: tuple[ResultRow, ...]
    energy: dict[str, dict[str, float]]
    runs: dict[str, Run]
    results_md_path: Path
    band_share: tuple[tuple[int, str], ...] = ()  # (step, range over the seeds), from the investigation note
    previous: ExperimentData | None = None  # the 05a68ae version, when vendored

    def runs_of(self, group: str) -> list[Run]:
        return sorted((r for r in self.runs.values() if r.group == group), key=lambda r: r.seed)


def load_results_json(
    path: Path, text: str | None = None
) -> tuple[float, tuple[ResultRow, ...], dict[str, dict[str, float]]]:
    """The experiment's results.json, validated: types, finite non-negative losses, one row per known run group."""
    label = str(path)
    if text is None:
        text = reading.read_text(path, label, reading.DATA_MAX_BYTES)
    rd = Reader(label)
    doc = rd.mapping(reading.load_json(text, label), "top level")
    target = rd.num(doc, "target", "", minimum=0.0)
    rows: list[ResultRow] = []
    first_of: dict[str, int] = {}
    for i, raw in enumerate(rd.list(rd.key(doc, "rows", ""), "rows")):
        p = f"rows[{i}]"
        r = rd.mapping(raw, p)
        row = ResultRow(
            group=rd.str(r, "group", p),
            label=rd.str(r, "label", p),
            variant=rd.str(r, "variant", p),
            seeds=rd.int(r, "seeds", p, minimum=1),
            final_val=rd.num(r, "final_val", p, minimum=0.0),
            final_val_sd=rd.num(r, "final_val_sd", p, minimum=0.0),
            payload_per_step=rd.int(r, "payload_per_step", p, minimum=1),
            payload_int64_per_step=rd.int(r, "payload_int64_per_step", p, minimum=1),
            wire_per_step=rd.num(r, "wire_per_step", p, minimum=0.0),
            ratio_vs_dense=rd.num(r, "ratio_vs_dense", p, minimum=0.0),
            reached=rd.str(r, "reached", p),
        )
        steps = rd.opt_num(r, "steps_to_target", p)
        if steps is not None and steps < 0:
            raise rd.fail(f"{p}.steps_to_target", "a number ≥ 0 or null", steps)
        m = RUN_NAME.match(row.group + "-s0")
        if not m:
            raise rd.fail(f"{p}.group", "a run group name like tinystories-band-low-k16-1d256-lr0.001", row.group)
        if row.variant not in VARIANTS:
            raise rd.fail(f"{p}.variant", f"one of {', '.join(VARIANTS)}", row.variant)
        if row.variant != m["variant"]:
            raise rd.fail(f"{p}.variant", f"{m['variant']!r} (the variant in the group name)", row.variant)
        if row.group in first_of:
            raise rd.fail(f"{p}.group", f"each run group once (rows[{first_of[row.group]}] has it)", row.group)
        first_of[row.group] = i
        rows.append(row)
    if not rows:
        raise rd.fail("rows", "at least one row", [])
    energy: dict[str, dict[str, float]] = {}
    for run, table in rd.mapping(rd.key(doc, "energy", ""), "energy").items():
        t = rd.mapping(table, f"energy.{run}")
        energy[run] = {k: rd.num(t, k, f"energy.{run}", minimum=0.0) for k in t}
    return target, tuple(rows), energy


def load_run(path: Path, text: str | None = None) -> Run:
    """One run's eval curve (.jsonl: a config record, then eval records with steps in order), validated."""
    label = str(path)
    name = path.name.removesuffix(".jsonl")
    m = RUN_NAME.match(name)
    if m is None:
        raise InputError(label, "file name", "a run name like tinystories-adamw-lr0.003-s0", repr(name))
    if text is None:
        text = reading.read_text(path, label, reading.DATA_MAX_BYTES)
    records = reading.load_jsonl(text, label)
    if not records:
        raise InputError(label, "line 1", "a config record", "an empty file")
    rd = Reader(label)
    head = rd.mapping(records[0], "line 1")
    if head.get("type") != "config":
        raise rd.fail("line 1.type", "'config'", head.get("type"))
    if rd.str(head, "name", "line 1") != name:
        raise rd.fail("line 1.name", f"the file's run name {name!r}", head["name"])
    cfg = rd.mapping(rd.key(head, "config", "line 1"), "line 1.config")
    seed = rd.int(cfg, "seed", "line 1.config")
    if seed != int(m["seed"]):
        raise rd.fail("line 1.config.seed", f"{int(m['seed'])} (the seed in the run name)", seed)
    variant = rd.str(cfg, "variant", "line 1.config")
    if variant != m["variant"]:
        raise rd.fail("line 1.config.variant", f"{m['variant']!r} (the variant in the run name)", variant)
    lr = rd.num(cfg, "lr", "line 1.config")
    if lr != float(m["lr"]):
        raise rd.fail("line 1.config.lr", f"{m['lr']} (the rate in the run name)", lr)
    for k in ("workers", "batch", "block", "n_layer", "n_embd", "steps", "eval_every", "chunk"):
        rd.int(cfg, k, "line 1.config", minimum=1)
    rd.num(cfg, "keep", "line 1.config", minimum=0.0)
    evals: list[EvalPoint] = []
    for n, rec in enumerate(records[1:], start=2):
        p = f"line {n}"
        r = rd.mapping(rec, p)
        if r.get("type") != "eval":
            raise rd.fail(f"{p}.type", "'eval'", r.get("type"))
        step = rd.int(r, "step", p, minimum=1)
        if evals and step <= evals[-1].step:
            raise rd.fail(f"{p}.step", f"a step after {evals[-1].step} (steps in order)", step)
        evals.append(
            EvalPoint(
                step=step,
                val_loss=rd.num(r, "val_loss", p, minimum=0.0),
                train_loss=rd.num(r, "train_loss", p, minimum=0.0),
                payload_bytes=rd.num(r, "payload_bytes", p, minimum=0.0),
                wire_bytes=rd.num(r, "wire_bytes", p, minimum=0.0),
                seconds=rd.num(r, "seconds", p, minimum=0.0),
                clip_rate=rd.num(r, "clip_rate", p, minimum=0.0) if "clip_rate" in r else None,
                clip_rate_interval=(
                    rd.num(r, "clip_rate_interval", p, minimum=0.0) if "clip_rate_interval" in r else None
                ),
            )
        )
    if not evals:
        raise InputError(label, "line 2", "at least one eval record", "none")
    return Run(
        name=name,
        group=m["group"],
        seed=seed,
        config=cfg,
        n_params=rd.int(head, "n_params", "line 1", minimum=1),
        payload_per_step=rd.int(head, "payload_bytes_per_step", "line 1", minimum=1),
        payload_int64_per_step=rd.int(head, "payload_bytes_int64_per_step", "line 1", minimum=1),
        wire_per_step=rd.num(head, "wire_bytes_per_step", "line 1", minimum=0.0),
        evals=tuple(evals),
        vocab=rd.int(rd.mapping(rd.key(head, "data", "line 1"), "line 1.data"), "vocab", "line 1.data", minimum=1),
    )


def load(pinned: Pinned) -> ExperimentData:
    """The input "experiment": the vendored experiment, read through the pins."""
    return load_experiment(pinned.folder("vendor"))


def load_experiment(vendor: Path | Folder) -> ExperimentData:
    """Load and validate the vendored experiment.

    The build passes the pinned vendor :class:`~site_builder.sources.pins.Folder` (every file read must be
    pinned and match its pin); a plain folder path reads the files unpinned (tests of the loader).
    """
    folder = vendor if isinstance(vendor, Folder) else Folder("vendor", Path(vendor), None)
    base = folder.base
    target, rows, energy = load_results_json(base / RESULTS_JSON, folder.read_text(RESULTS_JSON))
    curves = base / CURVES
    if not curves.is_dir():
        raise InputError(str(curves), "folder", "the experiment's run curves", "no such folder")
    runs: dict[str, Run] = {}
    for rel in folder.glob(f"{CURVES}/*.jsonl"):
        run = load_run(base / rel, folder.read_text(rel))
        runs[run.name] = run
    _check_seeds(base / RESULTS_JSON, rows, runs)
    groups = {r.group for r in rows}
    for run in runs.values():
        if run.group not in groups:
            raise InputError(
                str(curves / f"{run.name}.jsonl"), "file name", "a run of a group in results.json", run.group
            )
    band_share = load_band_share(INVESTIGATION, folder.read_text(INVESTIGATION))
    return ExperimentData(target, rows, energy, runs, base / RESULTS_MD, band_share, load_previous(folder, runs))


def _check_seeds(path: Path, rows: tuple[ResultRow, ...], runs: dict[str, Run]) -> None:
    for i, row in enumerate(rows):
        n = sum(1 for r in runs.values() if r.group == row.group)
        if n != row.seeds:
            raise InputError(str(path), f"rows[{i}].seeds", f"{n} (run curves found)", describe(row.seeds))


def load_previous(folder: Folder, runs: dict[str, Run]) -> ExperimentData | None:
    """The 05a68ae version (its results.json and results.md, with the vendored curves of the groups it lists),
    or None when it is not vendored. Its results.md must state the number of runs those groups hold."""
    present = folder.glob(PREVIOUS_GLOB)
    if PREVIOUS_JSON not in present and PREVIOUS_MD not in present:
        return None
    base = folder.base
    for rel in (PREVIOUS_JSON, PREVIOUS_MD):
        if rel not in present:
            raise InputError(str(base / rel), "file", f"both results.{PREVIOUS}.json and .md vendored", "only one")
    target, rows, energy = load_results_json(base / PREVIOUS_JSON, folder.read_text(PREVIOUS_JSON))
    groups = {r.group for r in rows}
    mine = {name: run for name, run in runs.items() if run.group in groups}
    _check_seeds(base / PREVIOUS_JSON, rows, mine)
    md = folder.read_text(PREVIOUS_MD)
    found = COMPLETED_RUNS.search(md)
    if found is None or int(found[1]) != len(mine):
        raise InputError(
            str(base / PREVIOUS_MD),
            "line 3",
            f"'from {len(mine)} completed runs' (the runs of its results.json's groups)",
            repr(found[0]) if found else "no count of runs",
        )
    return ExperimentData(target, rows, energy, mine, base / PREVIOUS_MD)


def load_band_share(label: str, text: str) -> tuple[tuple[int, str], ...]:
    """The investigation note's table of the low band's share of the delta's energy, by step: the per-step
    diagnostics behind it are not in the run logs, so these cells are read as the note prints them."""
    from site_builder import mdtables

    for section in mdtables.parse(text, label):
        for t in section.tables:
            if t.columns[:1] != ["Step"]:
                continue
            for row in t.rows:
                if row[:1] == [BAND_SHARE_ROW]:
                    out = []
                    for step, cell in zip(t.columns[1:], row[1:], strict=False):
                        if not step.isdigit() or not re.fullmatch(r"\d\.\d–\d\.\de-\d+", cell):
                            raise InputError(
                                label,
                                f"{section.title} › {BAND_SHARE_ROW} › {step}",
                                "a range such as 1.6–1.8e-5 under a step",
                                repr(cell),
                            )
                        out.append((int(step), cell))
                    return tuple(out)
    raise InputError(label, "tables", f"a table with a row {BAND_SHARE_ROW!r} under a Step header", "none")
