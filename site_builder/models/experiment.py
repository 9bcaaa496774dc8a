"""The DeMo fixed-band experiment, recomputed: final losses, bytes per step, steps to reach a loss, curves.

Pure functions over the validated run records (see ``site_builder.sources.experiment``).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from typing import Any

from site_builder.datatypes import dataclass

# <dataset>-<variant>[-<band>]-k16-<chunking>[-enob<E>-p<P>][-agc<N>][-fbsent]-lr<rate>-s<seed>
RUN_NAME = re.compile(
    r"^(?P<group>(?P<dataset>[a-z]+)-(?P<variant>adamw|topk|band|calib|optics)"
    r"(?:-(?P<band>low|high|zigzag|random|calib))?"
    r"(?:-k(?P<k>\d+)-(?P<chunking>1d|2d)(?P<chunk>\d+))?"
    r"(?:-enob(?P<enob>[\d.]+)-p(?P<planes>\d+))?"
    r"(?:-agc(?P<agc>\d+))?(?P<fbsent>-fbsent)?"
    r"-lr(?P<lr>[\d.e-]+))-s(?P<seed>\d+)$"
)
VARIANTS = ("adamw", "topk", "band", "calib", "optics")


@dataclass(frozen=True)
class EvalPoint:
    step: int
    val_loss: float
    train_loss: float
    payload_bytes: float
    wire_bytes: float
    seconds: float
    clip_rate: float | None
    clip_rate_interval: float | None


@dataclass(frozen=True)
class Run:
    name: str
    group: str
    seed: int
    config: dict[str, Any]
    n_params: int
    payload_per_step: int
    payload_int64_per_step: int
    wire_per_step: float
    evals: tuple[EvalPoint, ...]
    vocab: int


VALUE_BYTES = 2  # every transmitted value is BF16
INT64_INDEX_BYTES = 8


# -- configurations -------------------------------------------------------------------------------
def config_id(group: str) -> str:
    """A short, stable id for a run group: A, B, C-1d256, D, E-enob8-p8, Ex-enob8-p4, F-random, ...

    ``E`` is the repaired optics (full scale re-set, feedback of the band sent); ``Ex`` the first
    design (full scale fixed, feedback of the exact band); ``Ef`` full scale fixed with feedback of
    the band sent.
    """
    m = RUN_NAME.match(group + "-s0")
    if m is None:
        raise ValueError(f"not a run group: {group!r}")
    v = m["variant"]
    if v == "adamw":
        return "A"
    if v == "topk":
        return "B"
    if v == "calib":
        return "D"
    if v == "band":
        return f"C-{m['chunking']}{m['chunk']}" if m["band"] == "low" else f"F-{m['band']}"
    enob = float(m["enob"])
    tag = "E" if m["agc"] and m["fbsent"] else ("Ef" if m["fbsent"] else "Ex")
    return f"{tag}-enob{enob:g}-p{m['planes']}"


# -- final losses -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Final:
    values: tuple[float, ...]
    mean: float
    sd: float


def final_loss(runs: Sequence[Run]) -> Final:
    """Mean and sample standard deviation over seeds of each run's last validation loss (sd 0 for one seed)."""
    values = tuple(r.evals[-1].val_loss for r in runs)
    if not values:
        raise ValueError("no runs")
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return Final(values, statistics.fmean(values), sd)


# -- bytes ------------------------------------------------------------------------------------------
def gpt_tensor_shapes(n_layer: int, n_embd: int, vocab: int, block: int) -> list[tuple[int, ...]]:
    """The trained tensors of the experiment's GPT (no biases, tied output head), in model order."""
    shapes: list[tuple[int, ...]] = [(vocab, n_embd), (block, n_embd)]
    for _ in range(n_layer):
        shapes += [
            (n_embd,),
            (3 * n_embd, n_embd),
            (n_embd, n_embd),
            (n_embd,),
            (4 * n_embd, n_embd),
            (n_embd, 4 * n_embd),
        ]
    shapes.append((n_embd,))
    return shapes


def _largest_divisor(n: int, limit: int, pow2: bool) -> int:
    if pow2:
        d = 1
        while n % (d * 2) == 0 and d * 2 <= limit:
            d *= 2
        return d
    return max(d for d in range(1, min(n, limit) + 1) if n % d == 0)


def chunks_of(shape: tuple[int, ...], mode: str, size: int, pow2: bool = False) -> tuple[int, int]:
    """(number of chunks, values per chunk) of one tensor under the experiment's chunking rule."""
    numel = math.prod(shape)
    if mode == "2d" and len(shape) == 2:
        h = _largest_divisor(shape[0], size, pow2)
        w = _largest_divisor(shape[1], size, pow2)
        m = h * w
    else:
        m = _largest_divisor(numel, size, pow2)
    return numel // m, m


def keep_count(m: int, keep: float) -> int:
    return max(1, round(m * keep))


def index_bytes(m: int) -> int:
    """Bytes for a position inside a chunk of m coefficients."""
    return 1 if m == 1 else max(1, math.ceil(math.log2(m) / 8))


@dataclass(frozen=True)
class Bytes:
    """Per worker per step."""

    payload: int
    payload_int64: int
    wire: float


def ring_allreduce_wire(payload: float, workers: int) -> float:
    """A ring all-reduce: each worker sends 2(N−1)/N of the buffer."""
    return 2 * (workers - 1) / workers * payload


def ring_allgather_wire(payload: float, workers: int) -> float:
    """A ring all-gather: each worker forwards every other worker's piece, (N−1)·P."""
    return (workers - 1) * payload


def step_bytes(
    variant: str, shapes: Sequence[tuple[int, ...]], mode: str, size: int, keep: float, workers: int
) -> Bytes:
    """Payload and wire bytes per worker per step of one variant."""
    if variant == "adamw":
        dense = VALUE_BYTES * sum(math.prod(s) for s in shapes)
        return Bytes(dense, dense, ring_allreduce_wire(dense, workers))
    payload = payload64 = 0
    for shape in shapes:
        n, m = chunks_of(shape, mode, size, pow2=variant == "optics")
        k = keep_count(m, keep)
        idx = index_bytes(m) if variant == "topk" else 0
        payload += n * k * (VALUE_BYTES + idx)
        payload64 += n * k * (VALUE_BYTES + (INT64_INDEX_BYTES if variant == "topk" else 0))
    return Bytes(payload, payload64, ring_allgather_wire(payload, workers))


# -- steps to a loss ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Steps:
    """Steps to reach a target: per seed (None where that seed never got there), and the mean if all did."""

    per_seed: tuple[int | None, ...]

    @property
    def reached(self) -> int:
        return sum(s is not None for s in self.per_seed)

    @property
    def mean(self) -> float | None:
        if self.reached < len(self.per_seed):
            return None
        return statistics.fmean(s for s in self.per_seed if s is not None)


def first_step_at_or_below(run: Run, target: float) -> int | None:
    for e in run.evals:
        if e.val_loss <= target:
            return e.step
    return None


def steps_to(runs: Sequence[Run], target: float) -> Steps:
    return Steps(tuple(first_step_at_or_below(r, target) for r in runs))


# -- curves -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Curve:
    """Validation loss against step and cumulative wire bytes: mean over seeds and the seeds' range."""

    steps: tuple[int, ...]
    wire_bytes: tuple[float, ...]
    mean: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


def mean_curve(runs: Sequence[Run]) -> Curve:
    """Mean over seeds at the eval steps every seed recorded."""
    common = set.intersection(*({e.step for e in r.evals} for r in runs))
    steps = tuple(sorted(common))
    by_run = [{e.step: e for e in r.evals} for r in runs]
    mean, low, high = seed_band([[b[s].val_loss for s in steps] for b in by_run])
    wire = seed_mean([[b[s].wire_bytes for s in steps] for b in by_run])
    return Curve(steps, tuple(wire), tuple(mean), tuple(low), tuple(high))


def seed_mean(per_seed: Sequence[Sequence[float]]) -> list[float]:
    """Pointwise mean over seeds (exactly rounded, so independent of summation order)."""
    return [statistics.fmean(vals) for vals in zip(*per_seed, strict=True)]


def seed_band(per_seed: Sequence[Sequence[float]]) -> tuple[list[float], list[float], list[float]]:
    """Pointwise (mean, lowest, highest) over seeds."""
    cols = list(zip(*per_seed, strict=True))
    return [statistics.fmean(c) for c in cols], [min(c) for c in cols], [max(c) for c in cols]
