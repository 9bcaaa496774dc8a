"""The training FLOP-ledger analysis as a results document (``data/analysis/results.{md,json}``).

Every number comes from ``site_builder.models.analysis``; this module only lays the numbers out,
formats them with ``site_builder.fmt`` and names the figure keys (prefix ``ana.``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from site_builder import fmt
from site_builder.models.analysis import checks, precision
from site_builder.models.analysis.ledger import attention_layers, circ_block_of, per_token, sequence_cost, step_ledger
from site_builder.models.analysis.masks import MaskBudget, budget_terms, mask_budget
from site_builder.models.analysis.ops import padded_length
from site_builder.models.analysis.optimizer import demo_cost
from site_builder.models.analysis.shape import (
    CIRC_BLOCK,
    CLUSTER_GPUS,
    DMD_PIXELS,
    DMD_RATE_HZ,
    GPU_TFLOPS,
    HYENA_ORDER,
    LENGTHS,
    LLAMA3_8B,
    STEP_TOKENS,
    VARIANT_LABELS,
    VARIANTS,
    hyena_matrices,
    matmul_params,
    mlp_matrices,
    params_untied,
)
from site_builder.models.analysis.sixn import six_n_check
from site_builder.models.analysis.step import StepShares, step_shares
from site_builder.results.cells import Published, cell, published_against_ours
from site_builder.results_doc import Cell, ResultsDoc, Section

# Lengths of the mask tables: up to Llama-3-8B's trained context (8,192); 32,768 is shown apart.
MASK_LENGTHS: tuple[int, ...] = (2048, 4096, 8192)
EXTRAPOLATED_LENGTH = 32768
SCHEDULE_LENGTH = 2048
SHORT: dict[str, str] = {
    "transformer": "Transformer",
    "hyena2": "Hyena-2",
    "hybrid": "Hybrid 1:3",
    "circ": "Block-circulant",
}


def _label(variant: str, length: int) -> str:
    return f"{SHORT[variant]}, {fmt.integer(length)}"


def _range_text(values: Iterable[float], f: Callable[[float], str], sep: str = "–") -> tuple[str, float, float]:
    """``lo–hi`` with the unit printed once at the end (``9.53–10.07%``, ``1.105–1.112x``)."""
    vals = list(values)
    lo, hi = min(vals), max(vals)
    lo_t, hi_t = f(lo), f(hi)
    for unit in ("%", "x", " s"):
        if lo_t.endswith(unit) and hi_t.endswith(unit):
            lo_t = lo_t[: -len(unit)]
            break
    return f"{lo_t}{sep}{hi_t}", lo, hi


def _range_row(table: Any, label: str, key: str, values: Iterable[float], f: Callable[[float], str]) -> None:
    text, lo, hi = _range_text(values, f)
    table.add(label, cell(lo, f(lo), f"{key}_min"), cell(hi, f(hi), f"{key}_max"), Cell(text, text, key))


# ------------------------------------------------------------------------------------------------ intro
INTRO = """
This file is written by `make results` from `site_builder.models.analysis`, our own rebuild of the
training-step FLOP analysis behind the *Fourier Optics for Training* decks. It extends the forward-pass
ledger of the sister inference analysis (same Llama-3-8B shape, same op classes, same cost conventions:
a matmul costs 2mnk, a real FFT of length n costs 2.5 n log₂ n, a complex multiply 6 and a complex add 2;
a causal long convolution of length L is zero-padded to the smallest power of two that is at least 2L)
with a backward pass and an optimizer step, and asks how much of a training step an optical Fourier
engine could take. Every figure quoted in the decks appears below in a table cell, computed, never
typed in; where our value differs from the published one, the section says so and why.

The variants are the transformer (Llama-3-8B), a Hyena-2 model of the same shape, a hybrid with one
attention layer in four, and Hyena-2 with block-circulant weights (block 256). The step is 1,048,576
tokens (512 sequences at 2,048 tokens, 32 at 32,768). The ratio of the hybrid, the block size, the step,
the mask device and the cluster are illustrative.
"""

CONVENTIONS = """
How the backward pass is counted:

* **Matmuls** (projections, MLP, LM head) and the **attention products** (QKᵀ and AV): the backward
  costs twice the forward (one product for the input gradient, one for the weight gradient). The input
  embedding is a lookup and its gradient a scatter-add: no FLOPs either way.
* **Short depthwise convolution and gating** (digital `other` work): the backward is twice the forward.
  The convolution's input gradient is a correlation with the same taps and its tap gradient a
  correlation of the same size; a gating product a·b has the two gradients g·b and g·a. This is the
  matmul rule applied to every multiply, so the whole non-spectral ledger doubles.
* **Long convolution**, per channel and sequence: an FFT of the output gradient G and an inverse FFT for
  dU (two transforms, as in the forward); G·conj(H), a *weight-masked* product; G·conj(U), a
  *data-by-data* product (U's spectrum is kept from the forward pass); and one complex add per bin to
  accumulate dH over the step's sequences. Once per step per channel: the filter's FFT (counted in the
  forward) and the inverse FFT of the accumulated dH (counted in the backward).
* **Block-circulant weights**, per token and matrix: dX takes an FFT of each output-gradient block and an
  inverse FFT of each input-gradient block, multiplies by the conjugate block spectra (weight-masked)
  and sums over output blocks; dW is conj(X)·G per block pair (data-by-data), accumulated over the
  step's tokens with one complex add per bin. Once per step per matrix: the FFT of every block's
  defining vector (forward) and the inverse FFT of every accumulated block gradient (backward).
* **Accumulations are digital.** Every sum of Fourier-domain products (block sums, dH over sequences, the
  circulant dW over tokens) is counted as `other`, not as optical work. A sum is one complex add per
  product (accumulating into a zeroed buffer).
* **Once-per-step transforms are part of their pass.** The forward column includes the filter and
  block-spectrum FFTs amortised over the step's sequences; the backward column includes the inverse
  FFTs of the accumulated weight gradients. (Without the amortised filter FFTs the block-circulant
  forward share at 4,096 tokens would read 14.17% instead of 14.18%.)
* **Shares.** Optical work = transforms + all Fourier-domain products. The forward, backward and step
  columns are optical work over that pass's FLOPs. Static share = transforms + weight-masked products
  over the step's FLOPs: what an engine whose masks change only at optimizer steps could take. The
  data-by-data column is the data-by-data products as a part of the step's optical work. Bounds are
  Amdahl's 1/(1 − share) for the step share and for the static share.
* Not counted, as in the inference ledger and the 6N rule: softmax, normalisations, activations, the
  optimizer update itself, activation recomputation. All counts are exact integers.
"""


# ------------------------------------------------------------------------------------------------ sections
def _section_sixn(doc: ResultsDoc) -> list[dict[str, Any]]:
    s = doc.section("1. Cross-check: the 6N rule")
    s.text(
        "Training a dense model costs about 6 FLOPs per parameter per token (2 forward, 2 for the input "
        "gradient, 2 for the weight gradient) plus a term for the attention products, which grows with "
        "the sequence. N is the parameters that multiply activations: the untied model's total less the "
        "input embedding (128,256 × 4,096), which is a lookup. The attention term is the ledger's own "
        "causal count, 2·d·(s + 1) per token per layer forward, times three for the backward."
    )
    n_tab = s.table("Quantity", "Value")
    n_tab.add(
        "Parameters of untied Llama-3-8B",
        cell(params_untied(LLAMA3_8B), fmt.integer(params_untied(LLAMA3_8B)), "ana.sixn.params_untied"),
    )
    n_tab.add("N (less the input embedding)", cell(matmul_params(), fmt.integer(matmul_params()), "ana.sixn.n"))
    t = s.table("Sequence length", "Ledger (GFLOP/token)", "6N (GFLOP/token)", "Attention (GFLOP/token)", "Ratio")
    out = []
    for length in LENGTHS:
        c = six_n_check(length)
        k = f"ana.sixn.{length}"
        t.add(
            fmt.integer(length),
            cell(c.ledger_per_token / 1e9, fmt.fixed(c.ledger_per_token / 1e9, 2), f"{k}.gflop_per_token"),
            cell(c.six_n / 1e9, fmt.fixed(c.six_n / 1e9, 2), f"{k}.six_n_gflop"),
            cell(c.attention / 1e9, fmt.fixed(c.attention / 1e9, 2), f"{k}.attention_gflop"),
            cell(c.ratio, fmt.fixed(c.ratio, 4), f"{k}.ratio"),
        )
        out.append(c.as_dict())
    s.text(
        "The match is exact by construction: every matmul's backward is charged at twice its forward, which "
        "is what the rule assumes. Its use is as a bookkeeping check (no layer counted twice or missed); "
        "the unit tests hold the ratio to 1 within 1e-12."
    )
    return out


def _section_step(doc: ResultsDoc) -> dict[str, dict[str, Any]]:
    s = doc.section("2. A training step")
    s.text(CONVENTIONS)
    s.text(
        "Shares of the step that an optical engine could take, for every variant and sequence length, at "
        f"{fmt.integer(STEP_TOKENS)} tokens per optimizer step."
    )
    t = s.table(
        "Variant, length",
        "Forward",
        "Backward",
        "Step",
        "Static",
        "Data-by-data part",
        "Bound (step)",
        "Bound (static)",
        "Backward / forward",
    )
    shares: dict[str, dict[int, StepShares]] = {v: {} for v in VARIANTS}
    for v in VARIANTS:
        for length in LENGTHS:
            r = step_shares(v, length)
            shares[v][length] = r
            k = f"ana.step.{v}.{length}"
            t.add(
                _label(v, length),
                cell(r.forward, fmt.pct(r.forward), f"{k}.forward"),
                cell(r.backward, fmt.pct(r.backward), f"{k}.backward"),
                cell(r.step, fmt.pct(r.step), f"{k}.step"),
                cell(r.static, fmt.pct(r.static), f"{k}.static_share"),
                cell(r.data_part, fmt.pct(r.data_part), f"{k}.data_part"),
                cell(r.bound_optical, fmt.ratio_x(r.bound_optical), f"{k}.bound_optical"),
                cell(r.bound_static, fmt.ratio_x(r.bound_static), f"{k}.bound_static"),
                cell(r.backward_over_forward, fmt.ratio_x(r.backward_over_forward), f"{k}.bwd_over_fwd"),
            )
    s.text(
        "Ranges across the four sequence lengths (the decks quote these). The transformer has no transforms; "
        "its rows are 0.00% and bounds 1.000x throughout."
    )
    rt = s.table("Quantity", "Lowest", "Highest", "Range")
    pct2, x3 = fmt.pct, fmt.ratio_x
    _range_row(
        rt, "Hyena-2 static share", "ana.step.hyena2.static_range", (r.static for r in shares["hyena2"].values()), pct2
    )
    _range_row(
        rt,
        "Hyena-2 static bound",
        "ana.step.hyena2.bound_static_range",
        (r.bound_static for r in shares["hyena2"].values()),
        x3,
    )
    _range_row(
        rt,
        "Block-circulant static share",
        "ana.step.circ.static_range",
        (r.static for r in shares["circ"].values()),
        pct2,
    )
    _range_row(
        rt,
        "Block-circulant static bound",
        "ana.step.circ.bound_static_range",
        (r.bound_static for r in shares["circ"].values()),
        x3,
    )
    _range_row(
        rt,
        "Hyena-2 static share, 2,048 to 8,192",
        "ana.step.hyena2.static_range_8192",
        (shares["hyena2"][n].static for n in MASK_LENGTHS),
        pct2,
    )
    s.text(
        "Per-token FLOPs of the step by op class (GFLOP per token, whole step; forward and backward are in "
        "`results.json` under `data.ledger`)."
    )
    lt = s.table(
        "Variant, length",
        "Step, GFLOP/token",
        "Forward, GFLOP/token",
        "Backward, GFLOP/token",
        "Dense",
        "Attention",
        "Transform",
        "Weight-masked",
        "Data-by-data",
        "Other",
    )
    for v in VARIANTS:
        for length in LENGTHS:
            led = step_ledger(v, length)
            st = per_token(led.step, STEP_TOKENS)
            k = f"ana.ledger.{v}.{length}"
            vals = [
                ("step", led.step.total / STEP_TOKENS),
                ("forward", led.forward.total / STEP_TOKENS),
                ("backward", led.backward.total / STEP_TOKENS),
                ("dense", st["dense"]),
                ("attention", st["attention"]),
                ("transform", st["transform"]),
                ("spectral_w", st["spectral_w"]),
                ("spectral_d", st["spectral_d"]),
                ("other", st["other"]),
            ]
            lt.add(
                _label(v, length), *(cell(x / 1e9, fmt.fixed(x / 1e9, 4), f"{k}.{n}_gflop_per_token") for n, x in vals)
            )
    s.text(
        "Why the share falls from forward to step: the backward pass has as many long FFTs as the forward "
        "(U's spectrum is reused and dH is accumulated in the Fourier domain) while its matmuls double, so "
        "the backward share is about half the forward share, and the step, one part forward to about two "
        "parts backward, lands nearer the backward. Block-circulant weights fall less, because there the "
        "Fourier-domain products, which do double, are a large part of the optical work; a fifth of that "
        "work is the weight gradient's data-by-data products, which a once-per-step mask cannot hold."
    )
    return {v: {str(n): r.as_dict() for n, r in by_len.items()} for v, by_len in shares.items()}


def _section_demo(doc: ResultsDoc) -> dict[str, Any]:
    s = doc.section("3. The optimizer step and DeMo")
    d = demo_cost()
    s.text(
        "AdamW's update is element-wise: no transforms. DeMo (decoupled momentum) takes a DCT of each "
        "worker's momentum in chunks, sends a few coefficients, and applies the inverse transform to what "
        "it receives. Counted here as one DCT and one inverse DCT per chunk of 64 values over all "
        f"{fmt.integer(d.params)} parameters of the untied model (the embedding's momentum is compressed "
        "too), each at the cost of a real FFT of 64 points, and compared with the transformer's whole step "
        f"at {fmt.integer(4096)} tokens per sequence."
    )
    t = s.table("Quantity", "Chunks", "FLOPs per chunk", "DeMo FLOPs per step", "Step FLOPs", "Share of the step")
    t.add(
        "DeMo DCT and inverse DCT, chunks of 64",
        cell(d.chunks, fmt.integer(d.chunks), "ana.demo.chunks"),
        cell(d.flops_per_chunk, fmt.integer(d.flops_per_chunk), "ana.demo.flops_per_chunk"),
        cell(d.demo_flops, fmt.integer(d.demo_flops), "ana.demo.flops"),
        cell(d.step_flops, fmt.integer(d.step_flops), "ana.demo.step_flops"),
        cell(d.share, fmt.sci(d.share), "ana.demo.share"),
    )
    s.text(
        "Five millionths of the step, in 64-point transforms: far too small to matter as compute, and too "
        "short for an optical engine. What DeMo saves is bytes on the link between replicas, not FLOPs."
    )
    return d.as_dict()


def _mask_row(t: Any, m: MaskBudget) -> None:
    k = f"ana.masks.{m.variant}.{m.length}"
    t.add(
        _label(m.variant, m.length),
        cell(m.weight_values, fmt.integer(m.weight_values), f"{k}.weight_values"),
        cell(m.forward_frames, fmt.integer(m.forward_frames), f"{k}.forward_frames"),
        cell(m.backward_frames, fmt.integer(m.backward_frames), f"{k}.backward_frames"),
        cell(m.weight_seconds, fmt.unit(m.weight_seconds, 2, "s"), f"{k}.weight_seconds"),
        cell(m.digital_seconds, fmt.unit(m.digital_seconds, 2, "s"), f"{k}.digital_seconds"),
        cell(m.mask_over_step, fmt.ratio_x(m.mask_over_step, 2), f"{k}.mask_over_step"),
        cell(m.data_seconds, fmt.unit(m.data_seconds, 0, "s"), f"{k}.data_seconds"),
        cell(m.data_seconds_per_engine, fmt.unit(m.data_seconds_per_engine, 2, "s"), f"{k}.data_seconds_per_engine"),
    )


MASK_COLUMNS = (
    "Variant, length",
    "Mask values per pass",
    "Frames, forward (H)",
    "Frames, backward (conj H)",
    "Weight masks",
    "Digital step",
    "Masks / step",
    "Data-by-data masks",
    f"Data-by-data, over {CLUSTER_GPUS} engines",
)


def _section_masks(doc: ResultsDoc) -> dict[str, Any]:
    s = doc.section("4. Holding the masks")
    s.text(
        "In training the weights change at every optimizer step, so every weight spectrum (each Hyena "
        "filter's H, each circulant block's spectrum) must be written to the Fourier-plane mask again, "
        "once for the forward pass and once more, conjugated, for the backward. The illustrative device is "
        f"the inference series' micromirror array: {fmt.integer(DMD_PIXELS)} pixels at "
        f"{fmt.integer(int(DMD_RATE_HZ))} Hz (8-bit depth), one complex value per pixel (optimistic). The "
        f"digital step is the step's FLOPs on {CLUSTER_GPUS} GPUs at {fmt.integer(int(GPU_TFLOPS))} TFLOP/s "
        "sustained each."
    )
    s.text(
        "Conventions. Layer-major order: every sequence of the step passes through a layer while that "
        "layer's spectra are on the mask, so each spectrum is written once per direction per step. "
        "Weight-mask frames are counted per pass as ⌈values ÷ pixels⌉. The data-by-data masks are what the "
        "weight gradient's products would need if a mask held their data operand, conj(U) for each Hyena "
        "channel and sequence and conj(X) for each circulant input block and token: total values ÷ pixels "
        "over the step, on one device and spread evenly over all the GPUs' engines. A mask holding conj(X) of "
        "one input block serves the gradient of every output block, so the circulant count is per input "
        "block and token, not per block pair. The digital step charges every FLOP at the GPUs' sustained "
        "rate (FFTs at the matmul rate). Each direction (H, conj(H)) takes half the weight-mask time. "
        "The frame count of the weight masks does not depend on the step's size; the digital step grows "
        "with it."
    )
    t = s.table(*MASK_COLUMNS)
    out: dict[str, Any] = {}
    budgets: dict[str, dict[int, MaskBudget]] = {}
    for v in VARIANTS[1:]:
        budgets[v] = {}
        for length in (*MASK_LENGTHS, EXTRAPOLATED_LENGTH):
            budgets[v][length] = mask_budget(v, length)
        for length in MASK_LENGTHS:
            _mask_row(t, budgets[v][length])
    s.text(
        f"At {fmt.integer(EXTRAPOLATED_LENGTH)} tokens, beyond Llama-3-8B's 8,192-token context (shape-only "
        "extrapolation):"
    )
    t32 = s.table(*MASK_COLUMNS)
    for v in VARIANTS[1:]:
        _mask_row(t32, budgets[v][EXTRAPOLATED_LENGTH])
    s.text("Ranges up to 8,192 tokens (the decks quote these):")
    rt = s.table("Quantity", "Lowest", "Highest", "Range")
    secs = lambda x: fmt.unit(x, 2, "s")  # noqa: E731
    _range_row(
        rt,
        "Hyena-2 weight masks",
        "ana.masks.hyena2.weight_seconds_range",
        (budgets["hyena2"][n].weight_seconds for n in MASK_LENGTHS),
        secs,
    )
    _range_row(
        rt,
        "Block-circulant weight masks",
        "ana.masks.circ.weight_seconds_range",
        (budgets["circ"][n].weight_seconds for n in MASK_LENGTHS),
        secs,
    )
    _range_row(
        rt,
        "Weight masks, Hyena-2 and block-circulant",
        "ana.masks.weight_seconds_range",
        (budgets[v][n].weight_seconds for v in ("hyena2", "circ") for n in MASK_LENGTHS),
        secs,
    )
    _range_row(
        rt,
        "Digital step, Hyena-2 and block-circulant",
        "ana.masks.digital_seconds_range",
        (budgets[v][n].digital_seconds for v in ("hyena2", "circ") for n in MASK_LENGTHS),
        secs,
    )

    s.text(
        "The step with the engine, at the defaults: the engine does the static share in zero time "
        "(removable), and its mask writes are either added to what remains (not overlapped) or hidden "
        "behind it (fully overlapped: the larger of the two)."
    )
    et = s.table("Variant, length", "Removable", "Not overlapped", "Fully overlapped")
    for v in ("hyena2", "circ"):
        for length in MASK_LENGTHS:
            m = budgets[v][length]
            k = f"ana.masks.{v}.{length}"
            et.add(
                _label(v, length),
                cell(m.removable_seconds, fmt.unit(m.removable_seconds, 4, "s"), f"{k}.removable_seconds"),
                cell(m.step_serial_seconds, secs(m.step_serial_seconds), f"{k}.step_serial_seconds"),
                cell(m.step_overlapped_seconds, secs(m.step_overlapped_seconds), f"{k}.step_overlapped_seconds"),
            )

    n0 = SCHEDULE_LENGTH
    base = budgets["hyena2"][n0]
    s.text(
        f"Schedules, Hyena-2 at {fmt.integer(n0)} tokens ({base.sequences} sequences per step, "
        f"{base.sequences // base.replicas} per GPU). Sequence-major order makes one pass of mask writes per "
        "microbatch of m sequences on each replica (gradient accumulation run layer-major within a round); "
        "model parallelism gives each engine 1/k of the spectra. For comparison, the inference series "
        f"counts {fmt.integer(base.forward_frames)} frames for one forward pass of a {fmt.integer(n0)}-token "
        "Hyena-2 prompt on the same device: training writes them twice per step."
    )
    st = s.table("Schedule", "Passes", "Frames per pass", "Mask time", "Relative to layer-major")
    cases = [
        ("Layer-major", dict(schedule="layer-major"), "layer_major"),
        *(
            (f"Sequence-major, m = {mb}", dict(schedule="sequence-major", microbatch=mb), f"seq_major_m{mb}")
            for mb in (8, 4, 2, 1)
        ),
        ("Layer-major, model-parallel 32", dict(schedule="layer-major", model_parallel=32), "layer_major_mp32"),
    ]
    sched_out = {}
    for label, kw, slug in cases:
        m = mask_budget("hyena2", n0, **kw)  # type: ignore[arg-type]
        k = f"ana.masks.schedule.{slug}"
        rel = m.weight_seconds / base.weight_seconds
        st.add(
            label,
            cell(m.passes, fmt.integer(m.passes), f"{k}.passes"),
            cell(m.frames_per_pass, fmt.integer(m.frames_per_pass), f"{k}.frames_per_pass"),
            cell(m.weight_seconds, fmt.unit(m.weight_seconds, 3, "s"), f"{k}.weight_seconds"),
            cell(rel, fmt.ratio_x(rel, 2), f"{k}.relative"),
        )
        sched_out[slug] = m.as_dict()
    s.text(
        "Even one pipeline stage of 32 holds more Hyena-2 spectra than a 2-megapixel mask, so each pass "
        "still costs several frames. The data-by-data masks are out of reach: minutes of frames per step on "
        "one device, and about a whole digital step (Hyena-2) or many steps (block-circulant) even spread "
        f"over {CLUSTER_GPUS} engines. The weight gradient stays digital, and only the static share is a "
        "candidate for the engine."
    )
    out["defaults"] = {
        "step_tokens": STEP_TOKENS,
        "gpus": CLUSTER_GPUS,
        "tflops": GPU_TFLOPS,
        "pixels": DMD_PIXELS,
        "frame_rate_hz": DMD_RATE_HZ,
        "model_parallel": 1,
        "schedule": "layer-major",
        "microbatch": 1,
    }
    out["budgets"] = {v: {str(n): m.as_dict() for n, m in by_len.items()} for v, by_len in budgets.items()}
    out["schedules_hyena2_2048"] = sched_out
    # What an explorer needs to redo the budget at other settings without the ledger: per-token step FLOPs
    # and static share at the reference step, mask values per pass, data-by-data values per token.
    out["per_token"] = {
        v: {
            str(n): {
                "step_flops_per_token": m.step_flops / m.step_tokens,
                "static_share": m.static_share,
                "weight_values_per_pass": m.weight_values,
                "data_values_per_token": m.data_values / m.step_tokens,
            }
            for n, m in by_len.items()
        }
        for v, by_len in budgets.items()
    }
    # The same exactly at any step size (the step-against-mask explorer): integer terms linear in sequences.
    out["terms"] = {v: {str(n): budget_terms(v, n).as_dict() for n in by_len} for v, by_len in budgets.items()}
    return out


def _section_precision(doc: ResultsDoc) -> dict[str, Any]:
    s = doc.section("5. Precision for training formats")
    s.text(
        "The inference series' noise rule: an ADC whose full scale is set to the output's peak adds read-out "
        "noise of relative RMS crest × 2^−ENOB × 2/√12, so the ENOB that matches a number format whose own "
        "relative rounding error is e is log₂(crest · 2 / (√12 · e)). Here e is measured by rounding "
        "gradient-like test tensors, standard normal samples of 4,096, 16,384 and 65,536 values (seed "
        "20261004, one generator per size), whose crest factors grow with their size. FP8 E5M2 (2 mantissa "
        "bits) is emulated with a per-tensor scale that maps the peak to 57,344, BF16 (7 mantissa bits) "
        "without scaling; both round to nearest, ties to even."
    )
    rows = precision.enob_table()
    by_size: dict[int, dict[str, precision.EnobRow]] = {}
    for r in rows:
        by_size.setdefault(r.size, {})[r.format] = r
    t = s.table(
        "Tensor", "Crest factor", "E5M2 rounding error", "ENOB for E5M2", "BF16 rounding error", "ENOB for BF16"
    )
    for size, fr in by_size.items():
        e5, bf = fr[precision.FP8_E5M2.name], fr[precision.BF16.name]
        k = f"ana.precision.n{size}"
        t.add(
            f"Normal, {fmt.integer(size)} values",
            cell(e5.crest, fmt.fixed(e5.crest, 2), f"{k}.crest"),
            cell(e5.rel_error, fmt.sci(e5.rel_error), f"{k}.fp8.error"),
            cell(e5.enob, fmt.fixed(e5.enob, 2), f"{k}.fp8.enob"),
            cell(bf.rel_error, fmt.sci(bf.rel_error), f"{k}.bf16.error"),
            cell(bf.enob, fmt.fixed(bf.enob, 2), f"{k}.bf16.enob"),
        )
    rt = s.table("Format", "Lowest", "Highest", "Range")
    one = lambda x: fmt.fixed(x, 1)  # noqa: E731
    fp8 = [r.enob for r in rows if r.format == precision.FP8_E5M2.name]
    bf16 = [r.enob for r in rows if r.format == precision.BF16.name]
    for label, slug, vals in (("FP8 E5M2", "fp8", fp8), ("BF16", "bf16", bf16)):
        text, lo, hi = _range_text(vals, one)
        rt.add(
            label,
            cell(lo, one(lo), f"ana.precision.{slug}.enob_min"),
            cell(hi, one(hi), f"ana.precision.{slug}.enob_max"),
            Cell(text, text, f"ana.precision.{slug}.enob_range"),
        )
    top = max((r for r in rows if r.format == precision.BF16.name), key=lambda r: r.enob)
    crest_for_107 = precision.crest_for_enob(10.75, top.rel_error)
    s.text(
        "Published: 5.3–5.8 for E5M2 (reproduced) and 10.3–10.7 for BF16. We get "
        f"{_range_text(bf16, one)[0]} for BF16: the upper end, {fmt.fixed(max(bf16), 3)}, sits just above "
        "the rounding boundary 10.75. The range's ends are set by the crest factors of the test tensors, "
        f"which are random draws (our spikiest is {fmt.fixed(top.crest, 2)}); at the same rounding error "
        f"a crest factor below {fmt.fixed(crest_for_107, 2)} would print 10.7. The rule and the formats "
        "agree with the published figures; the test tensors that set the upper end evidently differ "
        "slightly. Spikier gradients (larger crest factors) need more ENOB."
    )
    bt = s.table("Quantity", "Value")
    f8 = precision.bit_plane_noise_factor(8)
    bt.add("Bit-plane noise factor √Σ4^b, 8 planes", cell(f8, fmt.fixed(f8, 1), "ana.precision.bitplane_factor_8"))
    s.text(
        "Carrying an integer as P binary planes, one optical pass each, recombined with weights 2^b, "
        "multiplies each plane's read-out noise by √Σ4^b over b = 0 … P − 1."
    )
    return {"rows": [r.as_dict() for r in rows], "bitplane_factor_8": f8, "crest_for_bf16_10_7": crest_for_107}


def _section_checks(doc: ResultsDoc) -> dict[str, Any]:
    s = doc.section("6. Numeric checks of the backward formulas")
    s.text(
        "For one channel y = h ∗ u (causal, first L outputs) and an output gradient g, the input gradient "
        "is a correlation of g with h and the filter gradient a correlation of g with u. The spectral "
        "forms dU = IFFT(G·conj(H)) and dH = IFFT(G·conj(U)) at the padded length (smallest power of two "
        "≥ 2L, first L outputs kept) are compared with the direct sums and with central finite differences "
        f"(step {fmt.sci(checks.FD_STEP, 0)}, {checks.FD_POINTS} indices per length) of the loss Σ g·y. "
        "Random standard normal u and g, and an exponentially decaying random filter h. An error is the "
        "largest absolute difference over the largest reference value, taken over dU and dH."
    )
    s.text(
        "The errors themselves are round-off, and round-off is not a reproducible number: its last digits "
        "move with the CPU's vector units and with the order in which the FFT and the direct and dot-product "
        "sums add their terms, so the same code prints different values on different machines. The tables "
        "therefore show the bound that every length must meet, which is true wherever the checks run: the "
        "unit tests assert it, and writing these results stops with an error if a measured error is not "
        "below it. The largest errors measured on x86-64 machines, with and without AVX2 and AVX-512, "
        "sit more than ten times below either bound."
    )
    res = checks.gradient_checks()
    for c in res:
        if not c.within_bounds():
            raise ValueError(
                f"gradient check at length {c.length}: errors {c.worst_direct:.2e} (direct) and "
                f"{c.worst_fd:.2e} (finite differences) exceed the bounds {checks.DIRECT_BOUND:.0e} and "
                f"{checks.FD_BOUND:.0e}"
            )
    direct = f"below {fmt.sci(checks.DIRECT_BOUND, 0)}"
    fd = f"below {fmt.sci(checks.FD_BOUND, 0)}"
    t = s.table("Length", "Padded to", "Spectral vs direct sums", "Spectral vs finite differences")
    for c in res:
        k = f"ana.checks.{c.length}"
        t.add(
            fmt.integer(c.length),
            cell(c.padded, fmt.integer(c.padded), f"{k}.padded"),
            cell(checks.DIRECT_BOUND, direct, f"{k}.direct_bound"),
            cell(checks.FD_BOUND, fd, f"{k}.fd_bound"),
        )
    wt = s.table("Comparison", "Largest relative error, every length")
    wt.add("Spectral vs direct sums", cell(checks.DIRECT_BOUND, direct, "ana.checks.direct_bound"))
    wt.add("Spectral vs finite differences", cell(checks.FD_BOUND, fd, "ana.checks.fd_bound"))
    s.text(
        "The spectral formulas agree with the direct sums to rounding. The finite-difference errors are "
        "larger and are set by the difference step (rounding of the loss divided by the step), not by the "
        f"formulas. Length 1,000 is not a power of two; it is padded to {fmt.integer(padded_length(1000))}."
    )
    return {
        "fd_step": checks.FD_STEP,
        "fd_points": checks.FD_POINTS,
        "direct_bound": checks.DIRECT_BOUND,
        "fd_bound": checks.FD_BOUND,
        "lengths": [{"length": c.length, "padded": c.padded} for c in res],
    }


def _ledger_data() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for v in VARIANTS:
        out[v] = {}
        for length in LENGTHS:
            led = step_ledger(v, length)
            c = sequence_cost(v, length)
            out[v][str(length)] = {
                "sequences": led.sequences,
                "forward": led.forward.as_dict(),
                "backward": led.backward.as_dict(),
                "forward_per_token": per_token(led.forward, STEP_TOKENS),
                "backward_per_token": per_token(led.backward, STEP_TOKENS),
                # The ledger at any step size: forward = per_sequence.forward x sequences + once_per_step.forward
                # (the same for the backward); exact integers, each below 2**53.
                "per_sequence": {"forward": c.fwd_seq.as_dict(), "backward": c.bwd_seq.as_dict()},
                "once_per_step": {"forward": c.fwd_step.as_dict(), "backward": c.bwd_step.as_dict()},
            }
    return out


def _mask_shape() -> dict[str, Any]:
    """What ``masks.weight_mask_values`` needs: Hyena layers and circulant block of each variant, and the
    (rows, columns) of the matrices that are block-circulant in a Hyena layer."""
    return {
        "hyena_layers": {v: LLAMA3_8B.n_layers - attention_layers(v) for v in VARIANTS},
        "circ_block": {v: circ_block_of(v) for v in VARIANTS},
        "circ_matrices": [list(m) for m in hyena_matrices(LLAMA3_8B, HYENA_ORDER) + mlp_matrices(LLAMA3_8B)],
    }


def build_analysis_results() -> ResultsDoc:
    """The whole analysis: sections 1 to 6 and the raw numbers the explorers need in ``data``."""
    doc = ResultsDoc(name="analysis", title="Results: the training-step FLOP ledger", intro=INTRO)
    data: dict[str, Any] = {
        "constants": {
            "model": "Llama-3-8B",
            "n_layers": LLAMA3_8B.n_layers,
            "d_model": LLAMA3_8B.d_model,
            "kv_width": LLAMA3_8B.kv_width,
            "d_ff": LLAMA3_8B.d_ff,
            "vocab": LLAMA3_8B.vocab,
            "hyena_order": HYENA_ORDER,
            "circ_block": CIRC_BLOCK,
            "step_tokens": STEP_TOKENS,
            "lengths": list(LENGTHS),
            "variants": list(VARIANTS),
            "variant_labels": VARIANT_LABELS,
            "mask_shape": _mask_shape(),
        }
    }
    data["sixn"] = _section_sixn(doc)
    data["shares"] = _section_step(doc)
    data["ledger"] = _ledger_data()
    data["demo"] = _section_demo(doc)
    data["masks"] = _section_masks(doc)
    data["precision"] = _section_precision(doc)
    data["checks"] = _section_checks(doc)
    _section_published(doc)
    doc.data = data
    return doc


# ------------------------------------------------------------------------------------------------ section 7
def published_figures() -> list[tuple[str, str, str]]:
    """(figure, published text, figure key of our cell) for every figure the decks and the hub quote."""
    h, c = "ana.step.hyena2", "ana.step.circ"
    return [
        ("6N check: GFLOP per token at 2,048", "46.64", "ana.sixn.2048.gflop_per_token"),
        ("6N check: GFLOP per token at 32,768", "70.80", "ana.sixn.32768.gflop_per_token"),
        ("6N check: ratio at 2,048", "1.0000", "ana.sixn.2048.ratio"),
        ("6N check: ratio at 32,768", "1.0000", "ana.sixn.32768.ratio"),
        ("Hyena-2, 2,048: forward share", "0.20%", f"{h}.2048.forward"),
        ("Hyena-2, 4,096: forward share", "0.21%", f"{h}.4096.forward"),
        ("Hyena-2, 4,096: backward share", "0.11%", f"{h}.4096.backward"),
        ("Hyena-2, 4,096: step share", "0.15%", f"{h}.4096.step"),
        ("Hyena-2, 4,096: static share", "0.14%", f"{h}.4096.static_share"),
        ("Hyena-2, 4,096: bound", "1.001x", f"{h}.4096.bound_optical"),
        ("Hyena-2, 4,096: backward / forward", "1.998x", f"{h}.4096.bwd_over_fwd"),
        ("Block-circulant, 4,096: forward share", "14.18%", f"{c}.4096.forward"),
        ("Block-circulant, 4,096: backward share", "11.16%", f"{c}.4096.backward"),
        ("Block-circulant, 4,096: step share", "12.19%", f"{c}.4096.step"),
        ("Block-circulant, 4,096: static share", "9.66%", f"{c}.4096.static_share"),
        ("Block-circulant, 4,096: data-by-data part", "20.73%", f"{c}.4096.data_part"),
        ("Block-circulant, 4,096: bound (step)", "1.139x", f"{c}.4096.bound_optical"),
        ("Block-circulant, 4,096: bound (static)", "1.107x", f"{c}.4096.bound_static"),
        ("Block-circulant static shares", "9.53–10.07%", f"{c}.static_range"),
        ("Block-circulant static bounds", "1.105–1.112x", f"{c}.bound_static_range"),
        ("Hyena-2 static shares", "0.13–0.18%", f"{h}.static_range"),
        ("Hyena-2 static shares, 2,048 to 8,192 (deck 03)", "0.13–0.15%", f"{h}.static_range_8192"),
        ("Hyena-2 static bound, at most (deck 03)", "1.002x", f"{h}.bound_static_range_max"),
        ("DeMo's DCTs, share of the step", "4.76e-06", "ana.demo.share"),
        ("Hyena-2 weight masks at 2,048", "0.52 s", "ana.masks.hyena2.2048.weight_seconds"),
        ("Hyena-2 weight masks at 8,192", "2.08 s", "ana.masks.hyena2.8192.weight_seconds"),
        ("Hyena-2 digital step at 2,048", "2.05 s", "ana.masks.hyena2.2048.digital_seconds"),
        ("Block-circulant digital step", "0.15 s", "ana.masks.circ.4096.digital_seconds"),
        ("Block-circulant weight masks", "0.54–2.10 s", "ana.masks.circ.weight_seconds_range"),
        ("Weight masks, both variants (deck 03)", "0.52–2.10 s", "ana.masks.weight_seconds_range"),
        ("Digital steps, both variants (deck 03)", "0.15–2.05 s", "ana.masks.digital_seconds_range"),
        ("Hyena-2 data-by-data masks", "133 s", "ana.masks.hyena2.4096.data_seconds"),
        ("Block-circulant data-by-data masks", "385 s", "ana.masks.circ.4096.data_seconds"),
        ("Inference frames per 2,048-token forward pass (FOptInf 02)", "269", "ana.masks.hyena2.2048.forward_frames"),
        ("ENOB matching FP8 E5M2", "5.3–5.8", "ana.precision.fp8.enob_range"),
        ("ENOB matching BF16", "10.3–10.7", "ana.precision.bf16.enob_range"),
        ("Bit-plane noise factor, 8 planes", "147.8", "ana.precision.bitplane_factor_8"),
    ]


def _section_published(doc: ResultsDoc) -> None:
    s: Section = doc.section("7. Published figures against this model")
    s.text(
        "Every analysis figure the decks and the series hub quote, beside the cell above that reproduces "
        "it. Where the two differ, the section that holds the figure explains why."
    )
    published_against_ours(s, doc, (Published(*f) for f in published_figures()))
