"""What the simulation takes from the experiment model."""

from __future__ import annotations

from site_builder.datatypes import dataclass


@dataclass(frozen=True)
class MeasuredConfig:
    """One measured configuration of the experiment."""

    name: str  # "A", "B", "C", "E", "E-enob6", "E-enob10", "E-enob12", "E-p4", "E-p12"
    label: str  # human label
    steps_to: dict[float, float | None]  # target loss -> whole steps (the seeds' mean, rounded); None = not reached
    payload_bytes: int  # per worker per step (experiment's payload column)
    wire_bytes: float  # per worker per step (experiment's wire column)
    seeds: int = 1  # how many seeds the steps are averaged over
    mean_steps_to: dict[float, float | None] | None = None  # the seeds' mean before rounding (None: as steps_to)
    planes: int | None = None  # bit planes of the optics (E family only)
    enob: float | None = None  # ENOB of the optics (E family only)


@dataclass(frozen=True)
class SimInputs:
    n_params: int  # 15,833,472
    workers: int  # 8
    seqs_per_worker: int  # 8
    seq_len: int  # 256
    configs: dict[str, MeasuredConfig]

    @property
    def tokens_per_worker(self) -> int:
        return self.seqs_per_worker * self.seq_len


def steps_to(cfg: MeasuredConfig, target: float, whole: bool = True) -> float | None:
    """Steps to ``target`` (matched to 1e-9), or None when the target is absent or not reached. ``whole``: the
    whole steps the simulation uses; else the seeds' unrounded mean."""
    table = cfg.steps_to if whole or cfg.mean_steps_to is None else cfg.mean_steps_to
    for loss, steps in table.items():
        if abs(loss - target) < 1e-9:
            return steps
    return None
