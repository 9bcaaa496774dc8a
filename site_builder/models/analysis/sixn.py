"""Cross-check of the transformer ledger against the 6N rule plus the attention term."""

from __future__ import annotations

from dataclasses import asdict
from fractions import Fraction

from site_builder.datatypes import dataclass

from .ledger import step_ledger
from .shape import LLAMA3_8B, STEP_TOKENS, ModelShape, matmul_params

# How close to 1 the unit tests hold the ledger's ratio to 6N plus attention.
RATIO_TOLERANCE = 1e-12


def attention_term_per_token(length: int, shape: ModelShape = LLAMA3_8B) -> int:
    """Training FLOPs per token of the attention products (QK^T and AV) over all layers.

    Forward: causal, diagonal included, over the full width: 2·d·(s+1) per token per layer; the backward
    doubles it, so three times that in all.
    """
    return 3 * shape.n_layers * 2 * shape.d_model * (length + 1)


@dataclass(frozen=True)
class SixNCheck:
    length: int
    n_params: int
    six_n: int
    attention: int
    rule: int
    ledger_per_token: float
    ratio: float

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


def six_n_check(length: int, step_tokens: int = STEP_TOKENS, shape: ModelShape = LLAMA3_8B) -> SixNCheck:
    """The transformer's step FLOPs per token against 6N + attention (FLOPs per token)."""
    led = step_ledger("transformer", length, step_tokens, shape)
    n = matmul_params(shape)
    attn = attention_term_per_token(length, shape)
    rule = 6 * n + attn
    per_tok = led.step.total / step_tokens
    return SixNCheck(length, n, 6 * n, attn, rule, per_tok, per_tok / rule)


@dataclass(frozen=True)
class PerParameter:
    """The transformer's dense (matmul) FLOPs per token over N: what the 6N rule calls 2, 4 and 6."""

    forward: Fraction
    backward: Fraction
    step: Fraction


def dense_flops_per_parameter(
    length: int = 2048, step_tokens: int = STEP_TOKENS, shape: ModelShape = LLAMA3_8B
) -> PerParameter:
    """Dense FLOPs of the transformer's step ledger per token per parameter of N, exactly (the attention
    products are left out; they are the rule's separate term)."""
    led = step_ledger("transformer", length, step_tokens, shape)
    den = matmul_params(shape) * step_tokens
    return PerParameter(
        Fraction(led.forward.dense, den), Fraction(led.backward.dense, den), Fraction(led.step.dense, den)
    )
