"""The optimizer step and DeMo: the FLOPs of its chunked DCTs as a share of a training step."""

from __future__ import annotations

import math
from dataclasses import asdict

from site_builder.datatypes import dataclass

from .ledger import step_ledger
from .ops import rfft
from .shape import LLAMA3_8B, STEP_TOKENS, params_untied

DEMO_CHUNK = 64  # values per DCT chunk (DeMo's 1-D chunk of 64)
DEMO_REFERENCE_LENGTH = 4096  # the transformer step DeMo's cost is compared with


@dataclass(frozen=True)
class DemoCost:
    params: int
    chunk: int
    chunks: int
    flops_per_chunk: int
    demo_flops: int
    step_flops: int
    share: float

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


def demo_cost(
    params: int | None = None,
    chunk: int = DEMO_CHUNK,
    variant: str = "transformer",
    length: int = DEMO_REFERENCE_LENGTH,
    step_tokens: int = STEP_TOKENS,
) -> DemoCost:
    """A DCT and an inverse DCT per chunk over every parameter, each at the real-FFT cost of the chunk,
    against the step FLOPs of ``variant`` at ``length``. ``params`` defaults to all 8,029,995,008
    parameters of the untied model (DeMo compresses every tensor's momentum, the embedding included).
    """
    p = params_untied(LLAMA3_8B) if params is None else params
    chunks = math.ceil(p / chunk)
    per_chunk = 2 * rfft(chunk)
    flops = chunks * per_chunk
    step = step_ledger(variant, length, step_tokens).step.total
    return DemoCost(p, chunk, chunks, per_chunk, flops, step, flops / step)
