"""Training-step Amdahl explorer (FOptTrn deck 01): how much of a training step an optical engine could take.

Controls: variant, sequence length, tokens per optimizer step. The page stacks the step's FLOPs by op
class (digital, transform, weight-masked, data-by-data) for the forward pass, the backward pass and the
step, and prints the shares and Amdahl bounds of results §2, the weight-mask frames of §4 and the digital
step time. The port (``static/js/ports/amdahl.js``) recomputes all of it from a compact payload: each
variant's per-sequence and once-per-step FLOPs by op class (exact integers), the shape the mask formula
needs, the mask device and the cluster. It ports ``ledger.step_ledger``, ``step.step_shares``,
``masks.weight_mask_values`` and the layer-major part of ``masks.mask_budget``, and the ``fmt``
functions the page prints with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder.results.producers import ResultsText

CLASSES = ("dense", "attention", "transform", "spectral_w", "spectral_d", "other")
# The op classes the bars stack, from the ledger's classes: matmuls, attention and other digital work are
# "digital"; the transforms and the two kinds of Fourier-domain products are the optical candidates.
BAR_CLASSES = ("digital", "transform", "weight_masked", "data_by_data")
PASSES = ("forward", "backward", "step")
# Tokens per step the range offers: the results' step times 2^k. The smallest is one sequence of the
# longest length, so every choice is a whole number of sequences at every length.
STEP_EXPONENTS = tuple(range(-5, 5))
# Non-default steps of the parity cases (each a whole number of sequences at every length).
CASE_STEP_TOKENS = (32_768, 262_144, 4_194_304, 16_777_216)
# Format cases: exact ties (Python rounds half to even, JavaScript's toFixed half up), carries, grouping.
FORMAT_CASES: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("fixed", (0.125, 2)),
    ("fixed", (0.375, 2)),
    ("fixed", (2.5, 0)),
    ("fixed", (3.5, 0)),
    ("fixed", (0.5, 0)),
    ("fixed", (1.005, 2)),
    ("fixed", (0.015, 2)),
    ("fixed", (-0.001, 2)),
    ("fixed", (-2.5, 0)),
    ("fixed", (9.9999, 3)),
    ("fixed", (1e22, 1)),
    ("fixed", (0.0, 4)),
    ("grouped", (1234567.891, 2)),
    ("grouped", (999.5, 0)),
    ("grouped", (-1234.5, 1)),
    ("integer", (1_074_003_968,)),
    ("integer", (0,)),
    ("integer", (545,)),
    ("integer", (50_593_752_674_205_696,)),
    ("pct", (0.14175,)),
    ("pct", (0.0015,)),
    ("pct", (0.00125, 3)),
    ("pct", (0.0,)),
    ("ratioX", (1.1395,)),
    ("ratioX", (6.965, 2)),
    ("ratioX", (1.0625,)),
    ("unit", (2.5, 0, "s")),
    ("unit", (132.6, 0, "s")),
    ("unit", (1.0455, 2, "s")),
    ("unit", (12345.678, 2, "s")),
    ("unit", (0.125, 2, "s")),
)
# Exact divisions of integers beyond 2**53 (as decimal strings): Python's int / int is correctly rounded.
DIVIDE_CASES = (
    ("50593752674205696", "1048576"),
    ("9007199254740993", "3"),
    ("18014398509481985", "18014398509481984"),
    ("1", "3"),
    ("0", "7"),
    ("123456789012345678901234567890", "987654321098765432109"),
)


def _analysis(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    return docs["analysis"].data


def _classes(d: Mapping[str, int]) -> dict[str, int]:
    out = {c: d[c] for c in CLASSES}
    if any(not isinstance(v, int) or not 0 <= v < 2**53 for v in out.values()):
        raise ValueError(f"expected exact integers below 2**53 in the analysis ledger, found {out}")
    return out


def _entry(data: Mapping[str, Any], variant: str, length: int) -> dict[str, Any]:
    led = data["ledger"][variant][str(length)]
    shape = data["constants"]["mask_shape"]
    return {
        "per_sequence": {p: _classes(led["per_sequence"][p]) for p in ("forward", "backward")},
        "once_per_step": {p: _classes(led["once_per_step"][p]) for p in ("forward", "backward")},
        "hyena_layers": shape["hyena_layers"][variant],
        "circ_block": shape["circ_block"][variant],
    }


def _config(data: Mapping[str, Any]) -> dict[str, Any]:
    c, d = data["constants"], data["masks"]["defaults"]
    return {
        "d_model": c["d_model"],
        "hyena_order": c["hyena_order"],
        "circ_matrices": c["mask_shape"]["circ_matrices"],
        "pixels": d["pixels"],
        "frame_rate_hz": d["frame_rate_hz"],
        "gpus": d["gpus"],
        "tflops": d["tflops"],
    }


def payload(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    data = _analysis(docs)
    c = data["constants"]
    step = c["step_tokens"]
    return {
        "variants": [{"id": v, "label": c["variant_labels"][v]} for v in c["variants"]],
        "lengths": c["lengths"],
        "step_tokens": [step * 2**k if k >= 0 else step // 2**-k for k in STEP_EXPONENTS],
        "default": {"variant": "circ", "length": 4096, "step_tokens": step},
        "config": _config(data),
        "ledger": {v: {str(n): _entry(data, v, n) for n in c["lengths"]} for v in c["variants"]},
    }


def view(variant: str, length: int, step_tokens: int) -> dict[str, Any]:
    """What the explorer shows for one setting, from the analysis model: raw numbers and printed text."""
    from site_builder import fmt
    from site_builder.models.analysis import mask_budget, step_ledger, step_shares

    sh = step_shares(variant, length, step_tokens)
    led = step_ledger(variant, length, step_tokens)
    mb = mask_budget(variant, length, step_tokens)
    bars = {
        name: {
            "digital": ops.dense + ops.attention + ops.other,
            "transform": ops.transform,
            "weight_masked": ops.spectral_w,
            "data_by_data": ops.spectral_d,
        }
        for name, ops in (("forward", led.forward), ("backward", led.backward), ("step", led.step))
    }
    return {
        "sequences": sh.sequences,
        "forward": sh.forward,
        "backward": sh.backward,
        "step": sh.step,
        "static": sh.static,
        "data_part": sh.data_part,
        "bound_optical": sh.bound_optical,
        "bound_static": sh.bound_static,
        "backward_over_forward": sh.backward_over_forward,
        "step_flops": sh.step_flops,
        "step_flops_per_token": sh.step_flops_per_token,
        "weight_values": mb.weight_values,
        "frames_forward": mb.forward_frames,
        "frames_backward": mb.backward_frames,
        "weight_seconds": mb.weight_seconds,
        "digital_seconds": mb.digital_seconds,
        "mask_over_step": mb.mask_over_step,
        "bars": bars,
        "text": {
            "step_tokens": fmt.integer(step_tokens),
            "sequences": fmt.integer(sh.sequences),
            "forward": fmt.pct(sh.forward),
            "backward": fmt.pct(sh.backward),
            "step": fmt.pct(sh.step),
            "static": fmt.pct(sh.static),
            "data_part": fmt.pct(sh.data_part),
            "bound_optical": fmt.ratio_x(sh.bound_optical),
            "bound_static": fmt.ratio_x(sh.bound_static),
            "backward_over_forward": fmt.ratio_x(sh.backward_over_forward),
            "step_gflop_per_token": fmt.fixed(sh.step_flops_per_token / 1e9, 4),
            "weight_values": fmt.integer(mb.weight_values),
            "frames_forward": fmt.integer(mb.forward_frames),
            "frames_backward": fmt.integer(mb.backward_frames),
            "weight_seconds": fmt.unit(mb.weight_seconds, 2, "s"),
            "digital_seconds": fmt.unit(mb.digital_seconds, 2, "s"),
            "mask_over_step": fmt.ratio_x(mb.mask_over_step, 2),
        },
    }


def _format_want(fn: str, args: tuple[Any, ...]) -> str:
    from site_builder import fmt

    if fn == "fixed":
        return fmt.fixed(*args)
    if fn == "grouped":
        return fmt.grouped(*args)
    if fn == "integer":
        return fmt.integer(*args)
    if fn == "pct":
        return fmt.pct(*args)
    if fn == "ratioX":
        return fmt.ratio_x(*args)
    if fn == "unit":
        return fmt.unit(*args)
    raise ValueError(f"no format case for {fn!r}")


def cases(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """Parity cases: every row of results §2 and every variant and length of §4 at the results' step, the
    same at other steps, the mask formula and frames of §4, exact division and the formats."""
    from site_builder.models.analysis import weight_mask_values
    from site_builder.models.analysis.ops import padded_length

    data = _analysis(docs)
    c = data["constants"]
    config = _config(data)
    out: list[dict[str, Any]] = []
    steps = (c["step_tokens"], *CASE_STEP_TOKENS)
    for v in c["variants"]:
        for n in c["lengths"]:
            entry = _entry(data, v, n)
            for t in steps:
                if t % n:
                    continue
                out.append({"id": f"{v}.{n}.{t}", "fn": "view", "args": [config, entry, n, t], "want": view(v, n, t)})
    for v in c["variants"][1:]:
        for n in c["lengths"]:
            entry = _entry(data, v, n)
            values = weight_mask_values(v, n)
            out.append({"id": f"{v}.{n}", "fn": "weightMaskValues", "args": [config, entry, n], "want": values})
            budget = data["masks"]["budgets"][v][str(n)]
            out.append(
                {
                    "id": f"{v}.{n}",
                    "fn": "framesPerPass",
                    "args": [values, config["pixels"]],
                    "want": budget["frames_per_pass"],
                }
            )
    for n in (1, 1000, *c["lengths"]):
        out.append({"id": str(n), "fn": "paddedLength", "args": [n], "want": padded_length(n)})
    for a, b in DIVIDE_CASES:
        out.append({"id": f"{a}/{b}", "fn": "divide", "args": [a, b], "want": int(a) / int(b)})
    for fn, args in FORMAT_CASES:
        out.append({"id": repr(args), "fn": fn, "args": list(args), "want": _format_want(fn, args)})
    return out
