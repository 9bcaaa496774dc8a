"""Figures recomputed by the experiment model whose cells live in the experiment's own results.md."""

from __future__ import annotations

from site_builder import fmt
from site_builder.models import experiment as m
from site_builder.results.experiment import bytes_of, groups_by_id
from site_builder.results.figures import Figure, Registry, ResultsFile, Source
from site_builder.sources.experiment import ExperimentData

S1 = "1. Loss against communication"
S2 = "2. Captured energy on real momentum"
S3 = "3. Emulated optics: ENOB and bit planes"
SELECTORS = {
    "topk": "Top-k",
    "low": "Low band",
    "zigzag": "Zig-zag",
    "high": "High band",
    "random": "Random",
    "calib": "Calibrated",
}
RUN_LETTER = {"band": "C", "calib": "D", "topk": "B"}


def energy_row(run_key: str) -> tuple[str, str]:
    """``band/2d/64`` -> (``C, 2d 64``, ``C-2d64``): the results.md row label and our id."""
    variant, mode, size = run_key.split("/")
    letter = RUN_LETTER[variant]
    return f"{letter}, {mode} {size}", (letter if letter != "C" else f"C-{mode}{size}")


def register(reg: Registry, data: ExperimentData, results: ResultsFile) -> None:
    def add(key: str, value: object, text: str, section: str, row: tuple[str, ...], column: str) -> None:
        reg.add(Figure(key, value, text, Source(results.label, section, row, column, results.page)))  # type: ignore[arg-type]

    rows = groups_by_id(data)
    dense = bytes_of(data, rows["A"]).payload
    for cid, row in rows.items():
        f = m.final_loss(data.runs_of(row.group))
        b = bytes_of(data, row)
        add(f"exp.final.{cid}", f.mean, fmt.mean_sd(f.mean, f.sd), S1, (row.label,), "Final val loss (mean ± sd)")
        add(f"exp.payload.{cid}", b.payload, fmt.integer(b.payload), S1, (row.label,), "Payload / step (bytes)")
        add(f"exp.vs_dense.{cid}", dense / b.payload, fmt.ratio_x(dense / b.payload, 1), S1, (row.label,), "vs dense")
        if row.variant == "optics":
            last = data.runs_of(row.group)[0].evals[-1]
            add(f"exp.optics.{cid}.final", f.mean, fmt.fixed(f.mean, 3), S3, (row.label,), "Final val loss")
            if last.clip_rate is not None and last.clip_rate_interval is not None:
                add(
                    f"exp.clip.{cid}.run",
                    last.clip_rate,
                    fmt.pct(last.clip_rate),
                    S3,
                    (row.label,),
                    "Clip rate (whole run)",
                )
                add(
                    f"exp.clip.{cid}.last",
                    last.clip_rate_interval,
                    fmt.pct(last.clip_rate_interval),
                    S3,
                    (row.label,),
                    "Clip rate (last interval)",
                )
    for run_key, table in data.energy.items():
        label, rid = energy_row(run_key)
        for k, v in table.items():
            tensor, group, sel = k.split("/")
            add(
                f"exp.energy.{rid}.{tensor}.{group}.{sel}",
                v,
                fmt.fixed(v, 3),
                S2,
                (label, tensor, group),
                SELECTORS[sel],
            )
