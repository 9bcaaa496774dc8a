"""Shares of a training step that an optical transform engine could take, and their Amdahl bounds."""

from __future__ import annotations

from dataclasses import asdict

from site_builder.datatypes import dataclass

from .ledger import sequence_cost, step_ledger
from .shape import STEP_TOKENS


def amdahl(share: float) -> float:
    """Speed-up bound if a share of the work became free: 1 / (1 - share)."""
    if not 0.0 <= share < 1.0:
        raise ValueError(f"share must be in [0, 1), found {share}")
    return 1.0 / (1.0 - share)


def _ratio(num: int, den: int) -> float:
    return num / den if den else 0.0


@dataclass(frozen=True)
class StepShares:
    """Shares of one optimizer step (fractions, not percentages).

    ``forward``, ``backward``, ``step``: optical work (transforms and every Fourier-domain product)
    over that pass's FLOPs. ``static``: transforms and weight-masked products over the step's FLOPs.
    ``data_part``: the data-by-data products as a part of the step's optical work.
    """

    variant: str
    length: int
    step_tokens: int
    sequences: int
    forward: float
    backward: float
    step: float
    static: float
    data_part: float
    bound_optical: float
    bound_static: float
    backward_over_forward: float
    step_flops: int
    step_flops_per_token: float

    def as_dict(self) -> dict[str, float | int | str]:
        return asdict(self)


def step_shares(variant: str, length: int, step_tokens: int = STEP_TOKENS) -> StepShares:
    """The section-2 row for one variant and sequence length."""
    led = step_ledger(variant, length, step_tokens)
    f, b, s = led.forward, led.backward, led.step
    share = _ratio(s.optical, s.total)
    static = _ratio(s.static, s.total)
    return StepShares(
        variant=variant,
        length=length,
        step_tokens=step_tokens,
        sequences=led.sequences,
        forward=_ratio(f.optical, f.total),
        backward=_ratio(b.optical, b.total),
        step=share,
        static=static,
        data_part=_ratio(s.spectral_d, s.optical),
        bound_optical=amdahl(share),
        bound_static=amdahl(static),
        backward_over_forward=b.total / f.total,
        step_flops=s.total,
        step_flops_per_token=s.total / step_tokens,
    )


def forward_share_per_sequence(variant: str, length: int, step_tokens: int = STEP_TOKENS) -> float:
    """The forward share without the once-per-step transforms (the filter and block-spectrum FFTs): what
    the forward column would read if those were not spread over the step's sequences."""
    led = step_ledger(variant, length, step_tokens)
    f = sequence_cost(variant, length).fwd_seq.scaled(led.sequences)
    return _ratio(f.optical, f.total)
