"""Step time against mask time (FOptTrn deck 03): the mask budget of one engine per GPU against the step.

The payload is the analysis results' ``data.masks``: the device and cluster defaults, and per variant and
sequence length the exact integer terms of the ledger and the mask values (``masks.terms``), from which
the port (``static/js/ports/step_mask.js``) redoes ``mask_budget`` and ``engine_step`` at any setting. At
its defaults the explorer prints the "Hyena-2, 2,048" row of results.md §4 (the masks table, the step
with the engine and the layer-major schedule), and the parity cases cover every row of §4's tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import fmt
from site_builder.models.analysis.masks import EngineStep, MaskBudget, engine_step, mask_budget
from site_builder.results.producers import ResultsText

DEFAULT_VARIANT = "hyena2"
DEFAULT_LENGTH = 2048
SETTINGS = ("step_tokens", "gpus", "tflops", "pixels", "frame_rate_hz", "model_parallel", "schedule", "microbatch")
TERMS = (
    "variant",
    "length",
    "step_flops_per_sequence",
    "step_flops_per_step",
    "static_flops_per_sequence",
    "static_flops_per_step",
    "optical_flops_per_sequence",
    "optical_flops_per_step",
    "weight_values",
    "data_values_per_sequence",
)
SAFE = 2**53 - 1  # JavaScript's Number.MAX_SAFE_INTEGER: every term must be an exact double


def _masks(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    return docs["analysis"].data["masks"]


def defaults(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    """The model's settings of results.md §4 (``data.masks.defaults``)."""
    d = _masks(docs)["defaults"]
    return {k: d[k] for k in SETTINGS}


def terms_of(docs: Mapping[str, ResultsText], variant: str, length: int) -> dict[str, Any]:
    t = _masks(docs)["terms"][variant][str(length)]
    out = {k: t[k] for k in TERMS}
    for k, v in out.items():
        if isinstance(v, int) and not 0 <= v <= SAFE:
            raise ValueError(f"data.masks.terms.{variant}.{length}.{k}: expected an integer below 2**53, found {v}")
    return out


def payload(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    data = docs["analysis"].data
    terms = _masks(docs)["terms"]
    labels = data["constants"]["variant_labels"]
    lengths = sorted({int(n) for by_len in terms.values() for n in by_len})
    return {
        "variants": [{"id": v, "label": labels[v]} for v in terms],
        "lengths": lengths,
        "defaults": {
            "variant": DEFAULT_VARIANT,
            "length": DEFAULT_LENGTH,
            **defaults(docs),
            "overlapped": False,
            "data_on_engines": False,
        },
        "terms": {v: {str(n): terms_of(docs, v, n) for n in lengths} for v in terms},
        "schedules": schedules(docs),
    }


def schedules(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """The schedule rows of results.md §4 (``data.masks.schedules_hyena2_2048``): the row's key (its figures are
    ``ana.masks.schedule.SLUG.*``) and the variant, length, schedule, microbatch and model-parallel degree it was
    computed at, the other settings being the defaults. The CSV keys the mask time at these settings."""
    rows = _masks(docs)["schedules_hyena2_2048"]
    keep = ("variant", "length", "schedule", "microbatch", "model_parallel")
    return [{"slug": slug, **{k: b[k] for k in keep}} for slug, b in rows.items()]


# ------------------------------------------------------------------------------------------------ outputs
def texts(b: MaskBudget, serial: EngineStep, over: EngineStep, chosen: EngineStep, relative: float) -> dict[str, str]:
    """Every printed value of the explorer, in the formats of results.md §4."""

    def secs(x: float, digits: int) -> str:
        return fmt.unit(x, digits, "s")

    return {
        "weight_values": fmt.integer(b.weight_values),
        "forward_frames": fmt.integer(b.forward_frames),
        "backward_frames": fmt.integer(b.backward_frames),
        "passes": fmt.integer(b.passes),
        "frames_per_pass": fmt.integer(b.frames_per_pass),
        "sequences": fmt.integer(b.sequences),
        "replicas": fmt.integer(b.replicas),
        "weight_seconds": secs(b.weight_seconds, 2),
        "mask_time": secs(b.weight_seconds, 3),
        "relative": fmt.ratio_x(relative, 2),
        "digital_seconds": secs(b.digital_seconds, 2),
        "mask_over_step": fmt.ratio_x(b.mask_over_step, 2),
        "data_seconds": secs(b.data_seconds, 0),
        "data_seconds_per_engine": secs(b.data_seconds_per_engine, 2),
        "share": fmt.pct(chosen.share),
        "removable_seconds": secs(chosen.removable_seconds, 4),
        "step_serial_seconds": secs(serial.step_seconds, 2),
        "step_overlapped_seconds": secs(over.step_seconds, 2),
        "step_seconds": secs(chosen.step_seconds, 2),
        "speedup": fmt.ratio_x(chosen.speedup, 3),
    }


def outputs(
    variant: str, length: int, settings: Mapping[str, Any], overlapped: bool, data_on_engines: bool
) -> dict[str, Any]:
    """What the port's ``outputs`` must give, from the Python model."""
    b = mask_budget(variant, length, **settings)
    base = mask_budget(variant, length, **{**settings, "schedule": "layer-major", "model_parallel": 1, "microbatch": 1})
    serial = engine_step(b, overlapped=False, data_on_engines=data_on_engines)
    over = engine_step(b, overlapped=True, data_on_engines=data_on_engines)
    relative = b.weight_seconds / base.weight_seconds if base.weight_seconds else 0.0
    chosen = over if overlapped else serial
    return {
        "budget": b.as_dict(),
        "serial": serial.as_dict(),
        "overlapped": over.as_dict(),
        "relative": relative,
        "text": texts(b, serial, over, chosen, relative),
    }


# ------------------------------------------------------------------------------------------------ cases
# Settings away from the defaults: (variant, length, changes, overlapped, data-by-data on the engines).
VARIATIONS: tuple[tuple[str, int, dict[str, Any], bool, bool], ...] = (
    ("hyena2", 2048, {}, True, False),
    ("hyena2", 2048, {}, False, True),
    ("hyena2", 2048, {}, True, True),
    ("hyena2", 4096, {"step_tokens": 32_768}, False, False),
    ("hyena2", 8192, {"step_tokens": 16_777_216}, True, False),
    ("hyena2", 32768, {"step_tokens": 32_768, "gpus": 1}, False, True),
    ("hybrid", 2048, {"gpus": 8, "tflops": 150.0}, False, False),
    ("hybrid", 4096, {"gpus": 1024, "tflops": 1250.0, "model_parallel": 8}, True, False),
    ("hybrid", 8192, {"schedule": "sequence-major", "microbatch": 2}, False, True),
    ("hybrid", 32768, {"schedule": "sequence-major", "microbatch": 1, "gpus": 4096}, True, True),
    ("circ", 2048, {"model_parallel": 64}, False, False),
    ("circ", 4096, {"schedule": "sequence-major", "microbatch": 16, "step_tokens": 4_194_304}, True, False),
    ("circ", 8192, {"gpus": 16, "model_parallel": 16, "tflops": 2000.0}, False, True),
    ("circ", 32768, {"step_tokens": 8_388_608, "schedule": "sequence-major", "microbatch": 3}, True, True),
    ("hyena2", 2048, {"gpus": 2, "model_parallel": 2, "schedule": "sequence-major", "microbatch": 64}, False, False),
    ("hyena2", 4096, {"tflops": 50.0, "step_tokens": 2_097_152}, True, False),
    ("hybrid", 2048, {"step_tokens": 65_536, "gpus": 512, "schedule": "sequence-major", "microbatch": 1}, False, False),
    ("circ", 8192, {"tflops": 125.0, "gpus": 256, "model_parallel": 4}, True, True),
)

# Format cases: ties (binary-exact halves round to even, as Python's format does), grouping, signs.
FORMATS: tuple[tuple[str, list[Any], str], ...] = (
    ("fixed", [0.125, 2], fmt.fixed(0.125, 2)),
    ("fixed", [0.375, 2], fmt.fixed(0.375, 2)),
    ("fixed", [2.5, 0], fmt.fixed(2.5, 0)),
    ("fixed", [3.5, 0], fmt.fixed(3.5, 0)),
    ("fixed", [0.0005, 3], fmt.fixed(0.0005, 3)),
    ("fixed", [-0.001, 2], fmt.fixed(-0.001, 2)),
    ("fixed", [9.995, 2], fmt.fixed(9.995, 2)),
    ("fixed", [99.99999, 3], fmt.fixed(99.99999, 3)),
    ("unit", [1234567.891, 2, "s"], fmt.unit(1234567.891, 2, "s")),
    ("unit", [132.5, 0, "s"], fmt.unit(132.5, 0, "s")),
    ("unit", [999.5, 0, "s"], fmt.unit(999.5, 0, "s")),
    ("unit", [0.00265625, 4, "s"], fmt.unit(0.00265625, 4, "s")),
    ("integer", [1074], fmt.integer(1074)),
    ("integer", [12345678901], fmt.integer(12345678901)),
    ("integer", [-1234567], fmt.integer(-1234567)),
    ("integer", [999], fmt.integer(999)),
    ("ratioX", [0.255, 2], fmt.ratio_x(0.255, 2)),
    ("ratioX", [1.0005, 3], fmt.ratio_x(1.0005, 3)),
    ("pct", [0.0013456], fmt.pct(0.0013456)),
    ("pct", [0.12345, 2], fmt.pct(0.12345, 2)),
)


def _case(
    docs: Mapping[str, ResultsText],
    cid: str,
    variant: str,
    length: int,
    changes: Mapping[str, Any],
    over: bool,
    data: bool,
) -> dict[str, Any]:
    settings = {**defaults(docs), **changes}
    return {
        "id": cid,
        "fn": "outputs",
        "args": [terms_of(docs, variant, length), settings, over, data],
        "want": outputs(variant, length, settings, over, data),
    }


def cases(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """Every row of results.md §4 (masks at 2,048 to 8,192 and at 32,768, the step with the engine, the
    schedules), settings away from the defaults, and the number formats."""
    out: list[dict[str, Any]] = []
    masks = _masks(docs)
    for v, by_len in masks["terms"].items():
        for n in by_len:
            out.append(_case(docs, f"§4 {v} {n}", v, int(n), {}, False, False))
    for slug, b in masks["schedules_hyena2_2048"].items():
        changes = {k: b[k] for k in ("schedule", "microbatch", "model_parallel")}
        out.append(_case(docs, f"§4 schedule {slug}", b["variant"], b["length"], changes, False, False))
    for i, (v, n, changes, over, data) in enumerate(VARIATIONS):
        out.append(_case(docs, f"variation {i}", v, n, changes, over, data))
    for fn, args, want in FORMATS:
        out.append({"id": f"format {fn}", "fn": fn, "args": args, "want": want})
    return out
