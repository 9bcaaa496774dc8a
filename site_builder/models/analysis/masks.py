"""Holding the masks: SLM frames per optimizer step against the digital step time.

A weight spectrum (Hyena filter H, circulant block spectrum) must be on the Fourier-plane mask while its
inputs pass; in training it changes every optimizer step and is needed twice per step, for the forward
(H) and the backward (conj(H)). Weight-mask frames are counted per pass as ceil(values / pixels) for the
share of the model one engine holds. Data-by-data masks (conj(U) per sequence for a Hyena filter
gradient, conj(X) per token for a circulant weight gradient) are counted as total values / pixels.
"""

from __future__ import annotations

import math
from dataclasses import asdict

from site_builder.datatypes import dataclass

from .ledger import attention_layers, circ_block_of, sequence_cost
from .ops import bins, padded_length
from .shape import (
    CLUSTER_GPUS,
    DMD_PIXELS,
    DMD_RATE_HZ,
    GPU_TFLOPS,
    HYENA_ORDER,
    LLAMA3_8B,
    STEP_TOKENS,
    ModelShape,
    hyena_matrices,
    mlp_matrices,
)
from .step import step_shares

SCHEDULES: tuple[str, ...] = ("layer-major", "sequence-major")


def _circ_dims(shape: ModelShape) -> tuple[tuple[int, int], ...]:
    return hyena_matrices(shape, HYENA_ORDER) + mlp_matrices(shape)


def weight_mask_values(variant: str, length: int, shape: ModelShape = LLAMA3_8B) -> int:
    """Complex mask values of every weight spectrum, for one pass (forward H or backward conj(H))."""
    hyena_layers = shape.n_layers - attention_layers(variant, shape)
    values = hyena_layers * HYENA_ORDER * shape.d_model * bins(padded_length(length))
    k = circ_block_of(variant)
    if k:
        values += hyena_layers * sum((m // k) * (n // k) * bins(k) for m, n in _circ_dims(shape))
    return values


def data_mask_values(variant: str, length: int, step_tokens: int = STEP_TOKENS, shape: ModelShape = LLAMA3_8B) -> int:
    """Complex mask values of the data-by-data products of one step.

    The mask would hold the data operand of each weight-gradient product while the output gradient
    passes: conj(U) per Hyena channel and sequence, conj(X) per circulant input block and token.
    """
    hyena_layers = shape.n_layers - attention_layers(variant, shape)
    sequences = step_tokens // length
    values = sequences * hyena_layers * HYENA_ORDER * shape.d_model * bins(padded_length(length))
    k = circ_block_of(variant)
    if k:
        values += step_tokens * hyena_layers * sum((n // k) * bins(k) for _, n in _circ_dims(shape))
    return values


@dataclass(frozen=True)
class MaskBudget:
    """Mask frames and seconds per optimizer step for one engine, against the digital step."""

    variant: str
    length: int
    step_tokens: int
    gpus: int
    tflops: float
    pixels: int
    frame_rate_hz: float
    model_parallel: int
    schedule: str
    microbatch: int
    sequences: int
    replicas: int
    passes: int
    weight_values: int
    frames_per_pass: int
    forward_frames: int
    backward_frames: int
    forward_seconds: float
    backward_seconds: float
    weight_seconds: float
    step_flops: int
    digital_seconds: float
    static_share: float
    removable_seconds: float
    step_serial_seconds: float
    step_overlapped_seconds: float
    mask_over_step: float
    data_values: int
    data_frames: float
    data_seconds: float
    data_seconds_per_engine: float

    def as_dict(self) -> dict[str, float | int | str]:
        return asdict(self)


def mask_budget(
    variant: str,
    length: int,
    step_tokens: int = STEP_TOKENS,
    gpus: int = CLUSTER_GPUS,
    tflops: float = GPU_TFLOPS,
    pixels: int = DMD_PIXELS,
    frame_rate_hz: float = DMD_RATE_HZ,
    model_parallel: int = 1,
    schedule: str = "layer-major",
    microbatch: int = 1,
) -> MaskBudget:
    """Mask frames and time per optimizer step, and the step they compete with.

    Each engine holds the spectra of 1/``model_parallel`` of the model (tensor x pipeline degree) and
    writes them once for the forward and once for the backward per pass. ``layer-major``: every sequence
    of the step goes through a layer while its spectra are loaded, one pass per step. ``sequence-major``:
    one pass per microbatch of ``microbatch`` sequences on each of the gpus / model_parallel replicas.
    Digital step = step FLOPs / (gpus x tflops); the engine takes the static share in zero time.
    ``step_serial_seconds``: mask time added to what remains (no overlap); ``step_overlapped_seconds``:
    the larger of the two. The data-by-data figures are one device's frames for the step, and the same
    spread evenly over all gpus' engines.
    """
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}, found {schedule!r}")
    if min(gpus, pixels, model_parallel, microbatch) < 1 or tflops <= 0 or frame_rate_hz <= 0:
        raise ValueError("gpus, pixels, model_parallel, microbatch, tflops and frame_rate_hz must be positive")
    if gpus % model_parallel:
        raise ValueError(f"model-parallel degree {model_parallel} does not divide {gpus} GPUs")
    shares = step_shares(variant, length, step_tokens)
    replicas = gpus // model_parallel
    if schedule == "layer-major":
        passes = 1
    else:
        per_replica = math.ceil(shares.sequences / replicas)
        passes = math.ceil(per_replica / microbatch)
    values = weight_mask_values(variant, length)
    frames_per_pass = math.ceil(values / (model_parallel * pixels)) if values else 0
    fwd_frames = bwd_frames = passes * frames_per_pass
    fwd_s, bwd_s = fwd_frames / frame_rate_hz, bwd_frames / frame_rate_hz
    mask_s = (fwd_frames + bwd_frames) / frame_rate_hz
    digital = shares.step_flops / (gpus * tflops * 1e12)
    removable = shares.static * digital
    data_values = data_mask_values(variant, length, step_tokens)
    data_frames = data_values / pixels
    data_s = data_frames / frame_rate_hz
    return MaskBudget(
        variant=variant,
        length=length,
        step_tokens=step_tokens,
        gpus=gpus,
        tflops=tflops,
        pixels=pixels,
        frame_rate_hz=frame_rate_hz,
        model_parallel=model_parallel,
        schedule=schedule,
        microbatch=microbatch,
        sequences=shares.sequences,
        replicas=replicas,
        passes=passes,
        weight_values=values,
        frames_per_pass=frames_per_pass,
        forward_frames=fwd_frames,
        backward_frames=bwd_frames,
        forward_seconds=fwd_s,
        backward_seconds=bwd_s,
        weight_seconds=mask_s,
        step_flops=shares.step_flops,
        digital_seconds=digital,
        static_share=shares.static,
        removable_seconds=removable,
        step_serial_seconds=digital - removable + mask_s,
        step_overlapped_seconds=max(digital - removable, mask_s),
        mask_over_step=mask_s / digital,
        data_values=data_values,
        data_frames=data_frames,
        data_seconds=data_s,
        data_seconds_per_engine=data_s / gpus,
    )


@dataclass(frozen=True)
class BudgetTerms:
    """What :func:`mask_budget` takes from the ledger, as exact integers linear in the step's sequences.

    For a step of q sequences: step FLOPs = ``step_flops_per_sequence`` x q + ``step_flops_per_step``, and
    the same for the static (transforms and weight-masked products) and optical (transforms and every
    Fourier-domain product) FLOPs; data-by-data mask values = ``data_values_per_sequence`` x q. The weight
    mask values of a pass do not depend on the step. An explorer redoes the budget at any step size from
    these (no ledger needed), and gets the model's numbers exactly.
    """

    variant: str
    length: int
    step_flops_per_sequence: int
    step_flops_per_step: int
    static_flops_per_sequence: int
    static_flops_per_step: int
    optical_flops_per_sequence: int
    optical_flops_per_step: int
    weight_values: int
    data_values_per_sequence: int

    def as_dict(self) -> dict[str, int | str]:
        return asdict(self)


def budget_terms(variant: str, length: int, shape: ModelShape = LLAMA3_8B) -> BudgetTerms:
    """The per-sequence and once-per-step terms of the step ledger and the mask values of ``variant``."""
    c = sequence_cost(variant, length, shape)
    seq, once = c.fwd_seq + c.bwd_seq, c.fwd_step + c.bwd_step
    return BudgetTerms(
        variant=variant,
        length=length,
        step_flops_per_sequence=seq.total,
        step_flops_per_step=once.total,
        static_flops_per_sequence=seq.static,
        static_flops_per_step=once.static,
        optical_flops_per_sequence=seq.optical,
        optical_flops_per_step=once.optical,
        weight_values=weight_mask_values(variant, length, shape),
        data_values_per_sequence=data_mask_values(variant, length, length, shape),
    )


@dataclass(frozen=True)
class EngineStep:
    """One optimizer step with the engine beside every GPU, against the digital step.

    The engine does its share of the step in zero time (``removable``); its mask writes are either added
    to the digital work that remains (not overlapped) or hidden behind it (fully overlapped: the larger of
    the two). With ``data_on_engines`` the engine also takes the data-by-data products (its share is then
    the whole optical share) and writes their masks, spread evenly over the GPUs' engines.
    """

    overlapped: bool
    data_on_engines: bool
    digital_seconds: float
    share: float
    removable_seconds: float
    remaining_seconds: float
    mask_seconds: float
    hidden_seconds: float
    step_seconds: float
    speedup: float

    def as_dict(self) -> dict[str, float | bool]:
        return asdict(self)


def engine_step(b: MaskBudget, overlapped: bool = False, data_on_engines: bool = False) -> EngineStep:
    """The step time with the engine for a mask budget: not overlapped, ``b.step_serial_seconds``; fully
    overlapped, ``b.step_overlapped_seconds`` (without the data-by-data products on the engines)."""
    if data_on_engines:
        share = step_shares(b.variant, b.length, b.step_tokens).step
        removable = share * b.digital_seconds
        masks = b.weight_seconds + b.data_seconds_per_engine
    else:
        share, removable, masks = b.static_share, b.removable_seconds, b.weight_seconds
    remaining = b.digital_seconds - removable
    step = max(remaining, masks) if overlapped else remaining + masks
    return EngineStep(
        overlapped=overlapped,
        data_on_engines=data_on_engines,
        digital_seconds=b.digital_seconds,
        share=share,
        removable_seconds=removable,
        remaining_seconds=remaining,
        mask_seconds=masks,
        hidden_seconds=min(remaining, masks) if overlapped else 0.0,
        step_seconds=step,
        speedup=b.digital_seconds / step,
    )
