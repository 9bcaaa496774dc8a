"""The training-step FLOP ledger: forward and backward of every layer, per sequence and per step."""

from __future__ import annotations

from functools import lru_cache

from site_builder.datatypes import dataclass

from .blocks import (
    BlockCost,
    attention_scores,
    dense_matrix,
    long_convolutions,
    matrices,
    short_conv_and_gating,
)
from .ops import Ops
from .shape import (
    CIRC_BLOCK,
    HYENA_ORDER,
    LLAMA3_8B,
    SHORT_TAPS,
    STEP_TOKENS,
    ModelShape,
    attention_matrices,
    hyena_matrices,
    mixer_of_layer,
    mlp_matrices,
)


def circ_block_of(variant: str) -> int:
    """Block size of the circulant weights of ``variant`` (0: dense weights)."""
    return CIRC_BLOCK if variant == "circ" else 0


@lru_cache(maxsize=256)
def sequence_cost(variant: str, length: int, shape: ModelShape = LLAMA3_8B) -> BlockCost:
    """Every layer (mixer then MLP) and the LM head, for one sequence of ``length`` tokens.

    The LM head stays dense in every variant and is charged to every token; the input embedding is a
    lookup (no FLOPs, forward or backward).
    """
    s, d = length, shape.d_model
    k = circ_block_of(variant)
    mlp = matrices(mlp_matrices(shape), s, k)
    attention_layer = matrices(attention_matrices(shape), s, 0) + attention_scores(d, s) + mlp
    hyena_layer = (
        matrices(hyena_matrices(shape, HYENA_ORDER), s, k)
        + short_conv_and_gating((HYENA_ORDER + 1) * d, SHORT_TAPS, HYENA_ORDER * d, s)
        + long_convolutions(HYENA_ORDER * d, s)
        + mlp
    )
    n_att = attention_layers(variant, shape)
    total = attention_layer.scaled(n_att) + hyena_layer.scaled(shape.n_layers - n_att)
    return total + dense_matrix(shape.vocab, d, s)


def attention_layers(variant: str, shape: ModelShape = LLAMA3_8B) -> int:
    """How many of the model's layers use attention (the rest use the Hyena mixer)."""
    return sum(mixer_of_layer(variant, i) == "attention" for i in range(shape.n_layers))


@dataclass(frozen=True)
class StepLedger:
    """FLOPs of one optimizer step of ``step_tokens`` tokens in sequences of ``length``.

    ``forward`` and ``backward`` are whole-step totals by op class; each includes its pass's once-per-step
    transforms (the forward's filter FFTs, the backward's inverse FFTs of accumulated weight gradients).
    """

    variant: str
    length: int
    step_tokens: int
    sequences: int
    forward: Ops
    backward: Ops

    @property
    def step(self) -> Ops:
        return self.forward + self.backward


def step_ledger(variant: str, length: int, step_tokens: int = STEP_TOKENS, shape: ModelShape = LLAMA3_8B) -> StepLedger:
    """The whole-step ledger. ``step_tokens`` must be a whole number of sequences."""
    if step_tokens <= 0 or step_tokens % length:
        raise ValueError(f"step of {step_tokens} tokens is not a whole number of {length}-token sequences")
    seqs = step_tokens // length
    c = sequence_cost(variant, length, shape)
    fwd = c.fwd_seq.scaled(seqs) + c.fwd_step
    bwd = c.bwd_seq.scaled(seqs) + c.bwd_step
    return StepLedger(variant, length, step_tokens, seqs, fwd, bwd)


def per_token(ops: Ops, tokens: int) -> dict[str, float]:
    """An op-class ledger divided by a token count (floats, for display and the explorers)."""
    return {name: value / tokens for name, value in ops.as_dict().items()}
