"""The training FLOP-ledger analysis as a results document (``data/analysis/results.{md,json}``).

Every number comes from ``site_builder.models.analysis``; this module only lays the numbers out,
formats them with ``site_builder.fmt`` and names the figure keys (prefix ``ana.``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from site_builder import fmt
from site_builder.models.analysis import checks, precision
from site_builder.models.analysis.blocks import dense_matrix
from site_builder.models.analysis.ledger import attention_layers, circ_block_of, per_token, sequence_cost, step_ledger
from site_builder.models.analysis.masks import MaskBudget, budget_terms, mask_budget
from site_builder.models.analysis.ops import CADD, CMUL, padded_length, rfft
from site_builder.models.analysis.optimizer import DEMO_REFERENCE_LENGTH, demo_cost
from site_builder.models.analysis.shape import (
    ATTN_EVERY,
    CIRC_BLOCK,
    CLUSTER_GPUS,
    DMD_BIT_DEPTH,
    DMD_PIXELS,
    DMD_RATE_HZ,
    GPU_TFLOPS,
    HYENA_ORDER,
    LENGTHS,
    LLAMA3_8B,
    STEP_TOKENS,
    TRAINED_CONTEXT,
    VARIANT_LABELS,
    VARIANTS,
    hybrid_ratio,
    hyena_matrices,
    matmul_params,
    mlp_matrices,
    params_untied,
)
from site_builder.models.analysis.sixn import RATIO_TOLERANCE, dense_flops_per_parameter, six_n_check
from site_builder.models.analysis.step import StepShares, forward_share_per_sequence, step_shares
from site_builder.results.cells import Published, cell, published_against_ours
from site_builder.results.doc import Cell, ResultsDoc, Section

# Lengths of the mask tables: up to Llama-3-8B's trained context (8,192); 32,768 is shown apart.
MASK_LENGTHS: tuple[int, ...] = tuple(n for n in LENGTHS if n <= TRAINED_CONTEXT)
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
`make results` writes this file from `site_builder.models.analysis`, the model behind the *Fourier Optics
for Training* decks, rebuilt here from its definitions. It starts from the sister inference series'
ledger of a forward pass, keeping its model shape (Llama-3-8B), its op classes and its cost conventions
(listed in section 2), adds the backward pass and the optimizer step, and then asks what part of a full
training step a Fourier-optical engine could take over. Each number the decks quote is a cell of a table
below, computed by the model, not typed in; where a cell differs from the figure published earlier, its
section gives the reason.

Four variants are compared: the transformer itself; Hyena-2 in the same shape; a hybrid that keeps
attention in a regular fraction of its layers (section 2 gives the pattern); and Hyena-2 whose projection and MLP matrices are
block-circulant. The settings of the study (tokens per step, sequence lengths, the circulant block, the
hybrid's mix of layers, the mask device and the GPU cluster) are inputs, not results: the settings tables
of sections 2 and 4 list them with the file each comes from. The hybrid's mix, the block size, the step,
the device and the cluster are illustrative choices rather than measurements.
"""

BACKWARD_RULES = """
How the backward pass is priced:

* **Matmuls and attention products.** The projections, the MLP, the LM head and attention's QKᵀ and AV
  products each cost two forwards in the backward pass: one product yields the gradient of the input,
  another the gradient of the weight. The input embedding is a lookup going forward and a scatter-add
  coming back, so it costs no FLOPs in either direction.
* **Short depthwise convolution and gating** (the digital `other` class) double as well. The short
  convolution's input gradient correlates the incoming gradient with the same taps, and its tap gradient
  is a correlation of equal size; a gating product a·b has the two gradients g·b and g·a. Applying the
  matmul rule to every multiply in this way doubles the whole non-spectral part of the ledger.
* **Long convolution**, for each channel of each sequence: the output gradient G is transformed and dU
  comes back through an inverse transform, so the backward has exactly the forward's pair of FFTs. It then
  needs G·conj(H), a *weight-masked* product, and G·conj(U), a *data-by-data* product that reuses the U
  spectrum saved during the forward pass, plus one complex add per bin that sums dH across the step's
  sequences. Once per step and channel come the filter's FFT (booked to the forward) and the inverse FFT
  of the summed dH (booked to the backward).
* **Block-circulant weights**, for each token and matrix: dX transforms every block of the output
  gradient, multiplies it by the conjugated block spectra (weight-masked), sums over the output blocks and
  inverse-transforms every block of the input gradient; dW multiplies conj(X) by G for every block pair
  (data-by-data) and sums the result over the step's tokens, one complex add per bin. Once per step and
  matrix come the FFT of each block's defining vector (forward) and the inverse FFT of each summed block
  gradient (backward).
* **Sums stay digital.** Adding up Fourier-domain products (over blocks, over the step's sequences for dH,
  over tokens for the circulant dW) is booked as `other`, never as optical work, at one complex add per
  product into a buffer that starts at zero.
* **Once-per-step transforms belong to their pass.** The forward column carries the filter and
  block-spectrum FFTs, spread over the step's sequences; the backward column carries the inverse FFTs of
  the summed weight gradients.{once_note}
* **Shares.** Optical work means transforms plus every Fourier-domain product. The forward, backward and
  step columns give optical work as a part of that pass's FLOPs. The static share counts transforms and
  weight-masked products only, over the step's FLOPs: the part open to an engine whose masks are
  rewritten just once between optimizer steps. The data-by-data column gives those products as a part of
  the step's optical work. The two bounds apply Amdahl's 1/(1 − share) to the step share and to the
  static share.
* Left out, as in the inference ledger and in the 6N rule: softmax, normalisations, activation
  functions, the optimizer's own update and any recomputation of activations. Every count is an exact
  integer.
"""


# ------------------------------------------------------------------------------------------------ sections
def _exact(x: Fraction) -> str:
    """A ratio the ledger gives exactly: an integer when it is one, else three decimals."""
    return fmt.integer(int(x)) if x.denominator == 1 else fmt.fixed(float(x), 3)


def _section_sixn(doc: ResultsDoc) -> list[dict[str, Any]]:
    s = doc.section("1. Cross-check: the 6N rule")
    s.text(
        "The 6N rule prices the training of a dense model at six FLOPs for every parameter and token: two in "
        "the forward pass and four in the backward, split evenly between the input gradient and the weight "
        "gradient. Attention's two products add a term of their own, which grows with the sequence. Here N "
        "counts only the parameters that multiply an activation, so the input embedding (a table lookup, "
        "vocabulary × width) is taken off the untied model's total. The attention term is the ledger's own "
        "causal count, 2·d·(s + 1) FLOPs per token and layer in the forward pass and three times that over "
        "forward and backward together. The shape comes from `presets.yaml` (`models.llama3-8b`), read into "
        "`site_builder/models/analysis/shape.py`; the FLOPs per parameter below are the transformer ledger's "
        "dense FLOPs per token divided by N, computed, not assumed."
    )
    n_tab = s.table("Quantity", "Value")
    n_tab.add("Layers", cell(LLAMA3_8B.n_layers, fmt.integer(LLAMA3_8B.n_layers), "ana.shape.layers"))
    n_tab.add("Model width d", cell(LLAMA3_8B.d_model, fmt.integer(LLAMA3_8B.d_model), "ana.shape.d_model"))
    n_tab.add("Vocabulary", cell(LLAMA3_8B.vocab, fmt.integer(LLAMA3_8B.vocab), "ana.shape.vocab"))
    n_tab.add(
        "Parameters of untied Llama-3-8B",
        cell(params_untied(LLAMA3_8B), fmt.integer(params_untied(LLAMA3_8B)), "ana.sixn.params_untied"),
    )
    n_tab.add("N (less the input embedding)", cell(matmul_params(), fmt.integer(matmul_params()), "ana.sixn.n"))
    pp = dense_flops_per_parameter()
    for label, slug, x in (
        ("forward", "forward", pp.forward),
        ("backward", "backward", pp.backward),
        ("step", "step", pp.step),
    ):
        n_tab.add(
            f"Dense FLOPs per parameter of N per token, {label}",
            cell(float(x), _exact(x), f"ana.sixn.per_param.{slug}"),
        )
    n_tab.add(
        "Tolerance the unit tests hold the ratio to",
        cell(RATIO_TOLERANCE, fmt.sci(RATIO_TOLERANCE, 0), "ana.sixn.tolerance"),
    )
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
        "The agreement is exact because the ledger prices each matmul's backward at two forwards, the same "
        "assumption the rule makes. What the check buys is trust in the bookkeeping: every layer is counted "
        "once and none is missing. The unit tests require the ratio to equal 1 within the tolerance above."
    )
    return out


def _section_step(doc: ResultsDoc) -> dict[str, dict[str, Any]]:
    s = doc.section("2. A training step")
    _step_settings(s)
    _step_conventions(s)
    shares = _step_shares(s)
    _step_ranges(s, shares)
    _step_ledger(s)
    h4, c4 = shares["hyena2"][4096], shares["circ"][4096]
    s.text(
        "Reading the tables: the backward pass needs no long FFTs beyond the forward's, since U's spectrum is "
        "saved and dH is summed before its single inverse transform, yet its matmuls cost twice as much. So "
        f"the Hyena-2 backward share comes out near half the forward share ({fmt.pct(h4.backward)} against "
        f"{fmt.pct(h4.forward)} at {fmt.integer(4096)} tokens), and the step, in which the backward outweighs "
        "the forward about two to one (the backward / forward column), sits closer to the backward figure. "
        "The block-circulant shares drop less from forward to backward: much of their optical work is "
        "products in the Fourier domain, and those grow along with the matmuls. Of that optical work, "
        f"{fmt.pct(c4.data_part)} at {fmt.integer(4096)} tokens is the weight gradient's data-by-data "
        "products, which a mask written once per step cannot hold."
    )
    return {v: {str(n): r.as_dict() for n, r in by_len.items()} for v, by_len in shares.items()}


def _step_settings(s: Section) -> None:
    s.text(
        "The study's settings. Every value here is an input, set in `site_builder/models/analysis/shape.py`: "
        "the circulant block and the hybrid's layer pattern come from `presets.yaml` "
        "(`flop_share_constants`), the step size and the sequence lengths are the decks' illustrative "
        "choices, and the trained context is Llama-3-8B's. The sequences per step are the step's tokens "
        "divided by the sequence length."
    )
    ratio = hybrid_ratio()
    ratio_text = f"{ratio[0]}:{ratio[1]}"
    n_att = attention_layers("hybrid")
    st = s.table("Setting", "Value")
    st.add("Tokens per optimizer step", cell(STEP_TOKENS, fmt.integer(STEP_TOKENS), "ana.setting.step_tokens"))
    st.add("Circulant block size", cell(CIRC_BLOCK, fmt.integer(CIRC_BLOCK), "ana.setting.circ_block"))
    st.add(
        "Hybrid: one attention layer in every", cell(ATTN_EVERY, fmt.integer(ATTN_EVERY), "ana.setting.hybrid_every")
    )
    st.add("Hybrid: attention layers", cell(n_att, fmt.integer(n_att), "ana.setting.hybrid_attention_layers"))
    st.add(
        "Hybrid: attention to Hyena layers",
        Cell(ratio_text, ratio_text, "ana.setting.hybrid_ratio"),
    )
    st.add(
        "Llama-3-8B's trained context, tokens",
        cell(TRAINED_CONTEXT, fmt.integer(TRAINED_CONTEXT), "ana.setting.trained_context"),
    )
    lt0 = s.table("Sequence length, tokens", "Sequences per step")
    for length in LENGTHS:
        q = STEP_TOKENS // length
        lt0.add(
            cell(length, fmt.integer(length), f"ana.setting.length.{length}"),
            cell(q, fmt.integer(q), f"ana.setting.sequences.{length}"),
        )


def _step_conventions(s: Section) -> None:
    s.text(
        "Cost conventions, the inference ledger's (`site_builder/models/analysis/ops.py`): FLOPs of one "
        "operation, each read back from the functions the ledger counts with."
    )
    ct = s.table("Operation", "FLOPs")
    per_mac = dense_matrix(1, 1, 1).fwd_seq.dense
    fft_coef = Fraction(rfft(1024), 1024 * 10)
    ct.add("Matmul, per multiply-add (m·n·k of them)", cell(per_mac, fmt.integer(per_mac), "ana.convention.matmul"))
    ct.add(
        "Real FFT of length n, per n·log₂ n",
        cell(float(fft_coef), fmt.fixed(float(fft_coef), 1), "ana.convention.rfft"),
    )
    ct.add("Complex multiply", cell(CMUL, fmt.integer(CMUL), "ana.convention.cmul"))
    ct.add("Complex add", cell(CADD, fmt.integer(CADD), "ana.convention.cadd"))
    without = forward_share_per_sequence("circ", 4096)
    s.text(
        BACKWARD_RULES.replace(
            "{once_note}",
            " (Without the spread filter FFTs the block-circulant forward share at "
            f"{fmt.integer(4096)} tokens would be {fmt.pct(without)} rather than "
            f"{fmt.pct(step_shares('circ', 4096).forward)}.)",
        )
    )


def _step_shares(s: Section) -> dict[str, dict[int, StepShares]]:
    s.text(
        "What an optical engine could take of the step, for each variant and sequence length, at "
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
    return shares


def _step_ranges(s: Section, shares: dict[str, dict[int, StepShares]]) -> None:
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


def _step_ledger(s: Section) -> None:
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


def _section_demo(doc: ResultsDoc) -> dict[str, Any]:
    s = doc.section("3. The optimizer step and DeMo")
    d = demo_cost()
    s.text(
        "AdamW updates each weight on its own, so its optimizer step holds no transform. DeMo (decoupled "
        "momentum) does hold some: each worker cuts its momentum into chunks, takes a DCT of every chunk, "
        "sends only a few of the coefficients, and inverts the transform on what arrives. The ledger prices "
        "that as one forward and one inverse DCT per chunk, each at the cost of a real FFT as long as the "
        f"chunk, over all {fmt.integer(d.params)} parameters of the untied model, since the embedding's "
        "momentum is compressed as well. The chunk length is an input (`DEMO_CHUNK` in "
        "`site_builder/models/analysis/optimizer.py`, DeMo's one-dimensional chunk). The comparison is the "
        f"transformer's whole step at {fmt.integer(DEMO_REFERENCE_LENGTH)} tokens per sequence."
    )
    t = s.table(
        "Quantity",
        "Values per chunk",
        "Chunks",
        "FLOPs per chunk",
        "DeMo FLOPs per step",
        "Step FLOPs",
        "Share of the step",
    )
    t.add(
        f"DeMo DCT and inverse DCT, chunks of {d.chunk}",
        cell(d.chunk, fmt.integer(d.chunk), "ana.demo.chunk"),
        cell(d.chunks, fmt.integer(d.chunks), "ana.demo.chunks"),
        cell(d.flops_per_chunk, fmt.integer(d.flops_per_chunk), "ana.demo.flops_per_chunk"),
        cell(d.demo_flops, fmt.integer(d.demo_flops), "ana.demo.flops"),
        cell(d.step_flops, fmt.integer(d.step_flops), "ana.demo.step_flops"),
        cell(d.share, fmt.sci(d.share), "ana.demo.share"),
    )
    s.text(
        "The share is a few parts per million of the step, and it comes in transforms only a chunk long: "
        "nothing an optical engine could profit from. DeMo's gain is fewer bytes exchanged between "
        "replicas, not fewer FLOPs."
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
        "Because the weights move at every optimizer step, each weight spectrum (the H of every Hyena filter, "
        "the spectrum of every circulant block) has to go back onto the Fourier-plane mask after each step: "
        "once as it is for the forward pass and once conjugated for the backward. The device and the cluster "
        "are illustrative inputs, set in `site_builder/models/analysis/shape.py`: the mask device is the "
        "inference series' micromirror array (`presets.yaml`, `slm_devices.dmd`), taken to hold one complex "
        "value per pixel (an optimistic reading), and the GPUs' sustained rate sets the digital step."
    )
    dt = s.table("Setting", "Value")
    dt.add("Mask device: pixels", cell(DMD_PIXELS, fmt.integer(DMD_PIXELS), "ana.setting.device.pixels"))
    mp = DMD_PIXELS / 1e6
    dt.add("Mask device: megapixels", cell(mp, fmt.unit(mp, 0, "MP"), "ana.setting.device.megapixels"))
    dt.add(
        "Mask device: frame rate",
        cell(DMD_RATE_HZ, f"{fmt.grouped(DMD_RATE_HZ)} Hz", "ana.setting.device.frame_rate"),
    )
    dt.add(
        "Mask device: bit depth at that rate",
        cell(DMD_BIT_DEPTH, f"{DMD_BIT_DEPTH}-bit", "ana.setting.device.bit_depth"),
    )
    dt.add("GPUs in the cluster", cell(CLUSTER_GPUS, fmt.integer(CLUSTER_GPUS), "ana.setting.cluster.gpus"))
    dt.add(
        "Sustained rate per GPU",
        cell(GPU_TFLOPS, f"{fmt.grouped(GPU_TFLOPS)} TFLOP/s", "ana.setting.cluster.tflops"),
    )
    budgets = _mask_tables(s)
    _mask_ranges(s, budgets)
    _mask_steps(s, budgets)
    mp_degree = 32
    sched_out = _mask_schedules(s, budgets, mp_degree)
    s.text(
        f"Even a pipeline stage holding one part in {mp_degree} of the model has more Hyena-2 spectra than a "
        f"single {fmt.unit(mp, 0, 'MP')} mask frame, so every pass still takes several frames. Masks for the "
        "data-by-data products are not a realistic option: one device would spend minutes of frames on them "
        f"per step, and even shared among all {CLUSTER_GPUS} engines they cost about a whole digital step for "
        "Hyena-2 and many steps for block-circulant weights. The weight gradient therefore remains on the "
        "GPUs, and the engine's candidate work is the static share alone."
    )
    out: dict[str, Any] = {}
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


def _secs(x: float) -> str:
    """Seconds as the mask tables write them."""
    return fmt.unit(x, 2, "s")


def _mask_tables(s: Section) -> dict[str, dict[int, MaskBudget]]:
    s.text(
        "How the frames are counted. In layer-major order all of the step's sequences go through a layer "
        "while its spectra sit on the mask, so every spectrum is written once per direction per step. A pass "
        "over the weight masks takes ⌈values ÷ pixels⌉ frames. The data-by-data columns price a mask that "
        "would hold the data operand of each weight-gradient product (conj(U) for every Hyena channel and "
        "sequence, conj(X) for every circulant input block and token) as the step's total values ÷ pixels, "
        "first on a single device and then shared evenly among the engines of all GPUs. One conj(X) mask "
        "serves the gradients of all output blocks of its input block, so the circulant count runs over "
        "input blocks and tokens rather than block pairs. The digital step prices every FLOP, FFTs included, "
        "at the GPUs' sustained matmul rate. Forward (H) and backward (conj(H)) writes each take half of the "
        "weight-mask time. More tokens per step lengthen the digital step but leave the weight-mask frames "
        "unchanged."
    )
    t = s.table(*MASK_COLUMNS)
    budgets: dict[str, dict[int, MaskBudget]] = {}
    for v in VARIANTS[1:]:
        budgets[v] = {}
        for length in (*MASK_LENGTHS, EXTRAPOLATED_LENGTH):
            budgets[v][length] = mask_budget(v, length)
        for length in MASK_LENGTHS:
            _mask_row(t, budgets[v][length])
    s.text(
        f"At {fmt.integer(EXTRAPOLATED_LENGTH)} tokens, longer than the {fmt.integer(TRAINED_CONTEXT)} tokens "
        "Llama-3-8B was trained on (only the shape is carried over):"
    )
    t32 = s.table(*MASK_COLUMNS)
    for v in VARIANTS[1:]:
        _mask_row(t32, budgets[v][EXTRAPOLATED_LENGTH])
    return budgets


def _mask_ranges(s: Section, budgets: dict[str, dict[int, MaskBudget]]) -> None:
    s.text(f"Ranges up to the trained context, {fmt.integer(TRAINED_CONTEXT)} tokens (the decks quote these):")
    rt = s.table("Quantity", "Lowest", "Highest", "Range")
    _range_row(
        rt,
        "Hyena-2 weight masks",
        "ana.masks.hyena2.weight_seconds_range",
        (budgets["hyena2"][n].weight_seconds for n in MASK_LENGTHS),
        _secs,
    )
    _range_row(
        rt,
        "Block-circulant weight masks",
        "ana.masks.circ.weight_seconds_range",
        (budgets["circ"][n].weight_seconds for n in MASK_LENGTHS),
        _secs,
    )
    _range_row(
        rt,
        "Weight masks, Hyena-2 and block-circulant",
        "ana.masks.weight_seconds_range",
        (budgets[v][n].weight_seconds for v in ("hyena2", "circ") for n in MASK_LENGTHS),
        _secs,
    )
    _range_row(
        rt,
        "Digital step, Hyena-2 and block-circulant",
        "ana.masks.digital_seconds_range",
        (budgets[v][n].digital_seconds for v in ("hyena2", "circ") for n in MASK_LENGTHS),
        _secs,
    )


def _mask_steps(s: Section, budgets: dict[str, dict[int, MaskBudget]]) -> None:
    s.text(
        "The step with the engine, at the settings above: the engine does the static share at no cost "
        "(removable); its mask writes either add to the digital work left (not overlapped) or run behind it "
        "(fully overlapped, where the step is the longer of the two)."
    )
    et = s.table("Variant, length", "Removable", "Not overlapped", "Fully overlapped")
    for v in ("hyena2", "circ"):
        for length in MASK_LENGTHS:
            m = budgets[v][length]
            k = f"ana.masks.{v}.{length}"
            et.add(
                _label(v, length),
                cell(m.removable_seconds, fmt.unit(m.removable_seconds, 4, "s"), f"{k}.removable_seconds"),
                cell(m.step_serial_seconds, _secs(m.step_serial_seconds), f"{k}.step_serial_seconds"),
                cell(m.step_overlapped_seconds, _secs(m.step_overlapped_seconds), f"{k}.step_overlapped_seconds"),
            )


def _mask_schedules(s: Section, budgets: dict[str, dict[int, MaskBudget]], mp_degree: int) -> dict[str, Any]:
    n0 = SCHEDULE_LENGTH
    base = budgets["hyena2"][n0]
    per_gpu = base.sequences // base.replicas
    s.text(
        f"Schedules for Hyena-2 at {fmt.integer(n0)} tokens. Sequence-major order writes the masks once per "
        "round of m sequences on each replica (gradient accumulation with each round run layer-major); model "
        "parallelism of degree k leaves each engine 1/k of the spectra and the cluster GPUs ÷ k replicas. "
        f"The inference series, on the same device, needs {fmt.integer(base.forward_frames)} frames for a "
        f"single forward pass over a Hyena-2 prompt of {fmt.integer(n0)} tokens; a training step writes that "
        "set twice."
    )
    qt = s.table("Quantity", "Value")
    qt.add(
        "Sequences per GPU (no model parallelism)",
        cell(per_gpu, fmt.integer(per_gpu), "ana.masks.schedule.sequences_per_gpu"),
    )
    mp_replicas = CLUSTER_GPUS // mp_degree
    qt.add(
        f"Replicas at model-parallel degree {mp_degree}",
        cell(mp_replicas, fmt.integer(mp_replicas), "ana.masks.schedule.replicas_mp32"),
    )
    st = s.table(
        "Schedule",
        "Sequences per round (m)",
        "Model-parallel degree",
        "Passes",
        "Frames per pass",
        "Mask time",
        "Relative to layer-major",
    )
    cases = [
        ("Layer-major", dict(schedule="layer-major"), "layer_major"),
        *(
            (f"Sequence-major, m = {mb}", dict(schedule="sequence-major", microbatch=mb), f"seq_major_m{mb}")
            for mb in (8, 4, 2, 1)
        ),
        (
            f"Layer-major, model-parallel {mp_degree}",
            dict(schedule="layer-major", model_parallel=mp_degree),
            f"layer_major_mp{mp_degree}",
        ),
    ]
    sched_out = {}
    for label, kw, slug in cases:
        m = mask_budget("hyena2", n0, **kw)  # type: ignore[arg-type]
        k = f"ana.masks.schedule.{slug}"
        rel = m.weight_seconds / base.weight_seconds
        mb_cell = (
            cell(m.microbatch, fmt.integer(m.microbatch), f"{k}.microbatch")
            if m.schedule == "sequence-major"
            else Cell("all")
        )
        st.add(
            label,
            mb_cell,
            cell(m.model_parallel, fmt.integer(m.model_parallel), f"{k}.model_parallel"),
            cell(m.passes, fmt.integer(m.passes), f"{k}.passes"),
            cell(m.frames_per_pass, fmt.integer(m.frames_per_pass), f"{k}.frames_per_pass"),
            cell(m.weight_seconds, fmt.unit(m.weight_seconds, 3, "s"), f"{k}.weight_seconds"),
            cell(rel, fmt.ratio_x(rel, 2), f"{k}.relative"),
        )
        sched_out[slug] = m.as_dict()
    return sched_out


def _section_precision(doc: ResultsDoc) -> dict[str, Any]:
    s = doc.section("5. Precision for training formats")
    sizes = [fmt.integer(n) for n in precision.TENSOR_SIZES]
    s.text(
        "The rule comes from the inference series: an ADC whose full scale is set at the output's peak reads "
        "out with noise of relative RMS crest × 2^−ENOB × 2/√12. Equating that with a number format's own "
        "relative rounding error e gives the ENOB that matches the format, log₂(crest · 2 / (√12 · e)). We "
        "measure e by rounding test tensors that stand in for gradients: standard normal samples of "
        f"{', '.join(sizes[:-1])} and {sizes[-1]} values (seed {precision.RNG_SEED}, a fresh generator per "
        "size), whose crest factors rise with their size. Both formats round to nearest with ties to even; "
        "FP8 E5M2 is emulated with a per-tensor scale that puts the tensor's peak at the format's largest "
        "finite value, BF16 without a scale. Their bit counts below are read from the format definitions in "
        "`site_builder/models/analysis/precision.py`."
    )
    ft = s.table("Format", "Exponent bits", "Mantissa bits", "Total bits", "Peak scaled to")
    for f_, slug in ((precision.FP8_E5M2, "fp8"), (precision.BF16, "bf16")):
        k = f"ana.precision.{slug}"
        ft.add(
            f_.name,
            cell(f_.exponent_bits, fmt.integer(f_.exponent_bits), f"{k}.exponent_bits"),
            cell(f_.mantissa_bits, fmt.integer(f_.mantissa_bits), f"{k}.mantissa_bits"),
            cell(f_.total_bits, fmt.integer(f_.total_bits), f"{k}.total_bits"),
            fmt.grouped(f_.scale_peak_to) if f_.scale_peak_to else "no scaling",
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
        "The published ranges are 5.3–5.8 ENOB for E5M2, which we reproduce, and 10.3–10.7 for BF16, where we "
        f"get {_range_text(bf16, one)[0]}: our highest BF16 value, {fmt.fixed(max(bf16), 3)}, lies just past "
        "the rounding boundary at 10.75. Both ends of each range are set by the crest factors of the test "
        f"tensors, which are random draws (the spikiest of ours has {fmt.fixed(top.crest, 2)}); with the same "
        f"rounding error, a crest factor under {fmt.fixed(crest_for_107, 2)} would have printed 10.7. The rule "
        "and the formats match the published ones, so the difference must lie in the test tensors behind the "
        "upper end. Gradients with larger crest factors need more ENOB."
    )
    bt = s.table("Quantity", "Value")
    planes = precision.BIT_PLANES
    f8 = precision.bit_plane_noise_factor(planes)
    bt.add("Planes P", cell(planes, fmt.integer(planes), "ana.precision.bitplane_planes"))
    bt.add(
        f"Bit-plane noise factor √Σ4^b, {planes} planes",
        cell(f8, fmt.fixed(f8, 1), "ana.precision.bitplane_factor_8"),
    )
    s.text(
        "An integer can be carried as P binary planes, each sent through the optics in a pass of its own and "
        "summed on the digital side with weights 2^b; each plane's read-out noise then comes back scaled by "
        "√Σ4^b, b running from 0 to P − 1."
    )
    return {"rows": [r.as_dict() for r in rows], "bitplane_factor_8": f8, "crest_for_bf16_10_7": crest_for_107}


def _section_checks(doc: ResultsDoc) -> dict[str, Any]:
    s = doc.section("6. Numeric checks of the backward formulas")
    s.text(
        "Take one channel y = h ∗ u, causal, keeping the first L outputs, and an output gradient g. The "
        "gradient with respect to the input is g correlated with h; the gradient with respect to the filter "
        "is g correlated with u. We evaluate the filter gradient as dH = IFFT(G·conj(U)) and the input "
        "gradient as dU = IFFT(G·conj(H)) at the padded length (the smallest power of two ≥ 2L, first L "
        "outputs kept) and compare both with the direct sums and with central finite differences of the "
        f"loss Σ g·y (step {fmt.sci(checks.FD_STEP, 0)}, {checks.FD_POINTS} indices per length). u and g are "
        "standard normal draws and h is a random filter that decays exponentially. The error reported is the "
        "largest absolute difference divided by the largest reference value, over dU and dH together."
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
            cell(c.length, fmt.integer(c.length), f"{k}.length"),
            cell(c.padded, fmt.integer(c.padded), f"{k}.padded"),
            cell(checks.DIRECT_BOUND, direct, f"{k}.direct_bound"),
            cell(checks.FD_BOUND, fd, f"{k}.fd_bound"),
        )
    wt = s.table("Comparison", "Largest relative error, every length")
    wt.add("Spectral vs direct sums", cell(checks.DIRECT_BOUND, direct, "ana.checks.direct_bound"))
    wt.add("Spectral vs finite differences", cell(checks.FD_BOUND, fd, "ana.checks.fd_bound"))
    s.text(
        "Rounding is the only disagreement between the spectral forms and the direct sums. The finite "
        "differences disagree more, and the cause is the difference step (the loss's rounding error divided "
        "by the step), not the formulas. The length "
        f"{fmt.integer(1000)} is no power of two, so the FFT pads it to {fmt.integer(padded_length(1000))}."
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
        "Each analysis figure quoted by the decks and the series hub, set beside the cell above that "
        "reproduces it. Where the two differ, the section holding the figure explains the difference."
    )
    published_against_ours(s, doc, (Published(*f) for f in published_figures()))
