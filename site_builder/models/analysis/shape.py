"""Model shape and study constants of the training FLOP ledger.

Sources: ``/work/shared/reference/presets.yaml`` (``models.llama3-8b``, ``flop_share_constants``,
``slm_devices.dmd``) and conventions.md part A; the step size, sequence lengths and cluster are the
illustrative choices of the training decks.
"""

from __future__ import annotations

import math

from site_builder.datatypes import dataclass


@dataclass(frozen=True)
class ModelShape:
    """A Llama-style decoder: layer count, widths and vocabulary."""

    n_layers: int
    d_model: int
    n_kv_heads: int
    head_dim: int
    d_ff: int
    vocab: int

    @property
    def kv_width(self) -> int:
        return self.n_kv_heads * self.head_dim


# presets.yaml models.llama3-8b
LLAMA3_8B = ModelShape(n_layers=32, d_model=4096, n_kv_heads=8, head_dim=128, d_ff=14336, vocab=128256)

# presets.yaml flop_share_constants
HYENA_ORDER = 2
SHORT_TAPS = 3
CIRC_BLOCK = 256
ATTN_EVERY = 4

# Variants of the study, in the order the tables list them.
VARIANTS: tuple[str, ...] = ("transformer", "hyena2", "hybrid", "circ")
VARIANT_LABELS: dict[str, str] = {
    "transformer": "Transformer (Llama-3-8B)",
    "hyena2": "Hyena-2",
    "hybrid": "Hybrid 1:3 attention:Hyena",
    "circ": "Hyena-2 + block-circulant weights",
}

# Sequence lengths used by the training decks, and the optimizer step (tokens).
LENGTHS: tuple[int, ...] = (2048, 4096, 8192, 32768)
STEP_TOKENS = 1_048_576

# Llama-3-8B's trained context (tokens): longer sequences are shape-only extrapolations.
TRAINED_CONTEXT = 8192

# presets.yaml slm_devices.dmd (8-bit depth): pixels and frame rate of the illustrative mask device.
DMD_PIXELS = 2_000_000
DMD_RATE_HZ = 1031.0
DMD_BIT_DEPTH = 8  # presets.yaml slm_devices.dmd.bit_depth_at_1031hz

# Illustrative cluster of the decks: 64 GPUs at 400 TFLOP/s sustained each.
CLUSTER_GPUS = 64
GPU_TFLOPS = 400.0


def hybrid_ratio(shape: ModelShape = LLAMA3_8B) -> tuple[int, int]:
    """Attention layers to Hyena layers of the hybrid, in lowest terms (1:3 for one attention layer in four)."""
    attention = sum(mixer_of_layer("hybrid", i) == "attention" for i in range(shape.n_layers))
    g = math.gcd(attention, shape.n_layers - attention)
    return attention // g, (shape.n_layers - attention) // g


def mixer_of_layer(variant: str, layer: int) -> str:
    """``"attention"`` or ``"hyena"`` for layer ``layer`` (0-based) of ``variant``."""
    if variant == "transformer":
        return "attention"
    if variant in ("hyena2", "circ"):
        return "hyena"
    if variant == "hybrid":
        return "attention" if layer % ATTN_EVERY == 0 else "hyena"
    raise ValueError(f"unknown variant {variant!r}; expected one of {', '.join(VARIANTS)}")


def attention_matrices(shape: ModelShape) -> tuple[tuple[int, int], ...]:
    """(rows, columns) of Wq, Wk, Wv, Wo (grouped-query K and V)."""
    d, kv = shape.d_model, shape.kv_width
    return ((d, d), (kv, d), (kv, d), (d, d))


def hyena_matrices(shape: ModelShape, order: int = HYENA_ORDER) -> tuple[tuple[int, int], ...]:
    """(rows, columns) of the Hyena in-projection ((N+1)d x d) and out-projection (d x d)."""
    d = shape.d_model
    return (((order + 1) * d, d), (d, d))


def mlp_matrices(shape: ModelShape) -> tuple[tuple[int, int], ...]:
    """(rows, columns) of the SwiGLU gate, up and down matrices."""
    d, f = shape.d_model, shape.d_ff
    return ((f, d), (f, d), (d, f))


def params_untied(shape: ModelShape = LLAMA3_8B) -> int:
    """Parameters of the transformer with an untied input embedding and LM head (8,029,995,008)."""
    per_layer = sum(m * n for m, n in attention_matrices(shape) + mlp_matrices(shape))
    return shape.n_layers * per_layer + 2 * shape.vocab * shape.d_model


def matmul_params(shape: ModelShape = LLAMA3_8B) -> int:
    """N of the 6N rule: the untied parameters less the input embedding, which is a lookup."""
    return params_untied(shape) - shape.vocab * shape.d_model
