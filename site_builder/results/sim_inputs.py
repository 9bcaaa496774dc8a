"""The simulation's inputs, measured: steps to each loss and bytes per step from the experiment model.

Steps to a loss are whole steps, as deck CiT 05 states them: each seed's first evaluation at or below the
loss, averaged over the seeds and rounded half up to a whole step (C's three seeds average 2,666.67, so
2,667). The unrounded mean is kept beside them for the one row that shows what the rounding moves.
"""

from __future__ import annotations

import math

from site_builder.models import experiment as m
from site_builder.models.simulation.inputs import MeasuredConfig, SimInputs
from site_builder.results.experiment import bytes_of, groups_by_id, ladder_targets
from site_builder.sources.experiment import ExperimentData

# simulation name -> experiment configuration id
MEASURED = {
    "A": "A",
    "B": "B",
    "C": "C-1d256",
    "E": "E-enob8-p8",
    "E-enob6": "E-enob6-p8",
    "E-enob10": "E-enob10-p8",
    "E-enob12": "E-enob12-p8",
    "E-p4": "E-enob8-p4",
    "E-p12": "E-enob8-p12",
}


def whole_steps(mean: float | None) -> float | None:
    """A mean step count rounded half up to a whole step (None stays None: not reached by every seed)."""
    return None if mean is None else float(math.floor(mean + 0.5))


def sim_inputs_from(data: ExperimentData) -> SimInputs:
    rows = groups_by_id(data)
    targets = [t for _, t in ladder_targets(data)]
    configs = {}
    for name, cid in MEASURED.items():
        row = rows[cid]
        runs = data.runs_of(row.group)
        b = bytes_of(data, row)
        cfg = runs[0].config
        optics = cfg["variant"] == "optics"
        means = {t: m.steps_to(runs, t).mean for t in targets}
        configs[name] = MeasuredConfig(
            name=name,
            label=row.label,
            steps_to={t: whole_steps(x) for t, x in means.items()},
            mean_steps_to=means,
            payload_bytes=b.payload,
            wire_bytes=b.wire,
            seeds=len(runs),
            planes=int(cfg["planes"]) if optics else None,
            enob=float(cfg["enob"]) if optics else None,
        )
    a = data.runs_of(rows["A"].group)[0]
    return SimInputs(
        n_params=a.n_params,
        workers=int(a.config["workers"]),
        seqs_per_worker=int(a.config["batch"]),
        seq_len=int(a.config["block"]),
        configs=configs,
    )
