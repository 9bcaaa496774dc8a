"""Extrapolations outside the experiment: model size, and DiLoCo-style syncing every H steps."""

from __future__ import annotations

from .closed_form import StepPlan


def diloco_time(plan: StepPlan, steps: float, h: float) -> float:
    """Time to target when the sync (GPU transform, module, collective) runs once every ``h`` steps and the steps
    to target stay the same (an assumption, not a measurement). Training compute runs every step."""
    train = plan.phases[0].time * plan.train_flops / plan.compute_flops
    per_sync = plan.time - train
    return steps * (train + per_sync / h)


def scaled_sizes(n_params: int, llama3_8b: int | None) -> list[tuple[str, int]]:
    """Model sizes for the size extrapolation: the experiment's, 10x, 100x and the Llama-3-8B shape."""
    out = [("experiment", n_params), ("10x", 10 * n_params), ("100x", 100 * n_params)]
    if llama3_8b is not None:
        out.append(("llama3-8b", llama3_8b))
    return out
