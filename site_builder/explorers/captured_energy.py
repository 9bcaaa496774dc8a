"""Captured energy: the share of a tensor's energy each selector keeps at the same k, by run and parameter group.

The numbers are the vendored experiment's results.json ``energy`` block (its results.md §2, "Captured energy on
real momentum"), carried into our experiment results document as ``data.energy``: for each run the diagnostics
were taken in (the fixed low band in three chunkings, the calibrated band, top-k), each tensor (a plain
momentum, DeMo's delta, the gradient), each parameter group (all, attention, MLP, embeddings) and each
selector (top-k, the fixed low band, zig-zag, high band, random, calibrated), the share of energy kept.

The port (``static/js/ports/captured_energy.js``) lays one run and tensor out as the page shows it: each
share printed as results.md prints it (three decimals, "n/a" where the run has no such selector) and against
the keep fraction (a random set keeps about that share). At its defaults (the low band's run in 2-D 64×64
chunks, momentum) it prints the row "C, 2d 64 | momentum" of the vendored results.md §2: top-k 0.643, low
band 0.013.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import fmt
from site_builder.results.producers import ResultsText

DEFAULTS = {"run": "band/2d/64", "tensor": "momentum"}
# Runs in the order of the vendored results.md §2: run key -> our configuration id (whose label we show).
RUNS = (
    ("band/1d/64", "C-1d64"),
    ("band/1d/256", "C-1d256"),
    ("band/2d/64", "C-2d64"),
    ("calib/2d/64", "D"),
    ("topk/2d/64", "B"),
)
TENSORS = (("momentum", "Momentum"), ("delta", "Delta (what DeMo compresses)"), ("grad", "Gradient"))
GROUPS = (("all", "All parameters"), ("attn", "Attention"), ("mlp", "MLP"), ("embed", "Embeddings"))
SELECTORS = (
    ("topk", "Top-k"),
    ("low", "Low band"),
    ("zigzag", "Zig-zag"),
    ("high", "High band"),
    ("random", "Random"),
    ("calib", "Calibrated"),
)


def _energy(docs: Mapping[str, ResultsText]) -> dict[str, dict[str, float]]:
    return docs["experiment"].data["energy"]


def keep_fraction(docs: Mapping[str, ResultsText]) -> float:
    """The kept fraction of coefficients (results.md §1 of our experiment results)."""
    return float(docs["experiment"].parsed["figures"]["exp.setting.keep"]["value"])


def nested(flat: Mapping[str, float]) -> dict[str, dict[str, dict[str, float]]]:
    """``{"momentum/all/topk": x}`` -> ``{"momentum": {"all": {"topk": x}}}``."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for key, v in flat.items():
        tensor, group, sel = key.split("/")
        out.setdefault(tensor, {}).setdefault(group, {})[sel] = v
    return out


def payload(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    energy = _energy(docs)
    curves = docs["experiment"].data["curves"]
    missing = [k for k, _ in RUNS if k not in energy]
    if missing or len(energy) != len(RUNS):
        raise ValueError(f"data.energy: expected the runs {[k for k, _ in RUNS]}, found {sorted(energy)}")
    return {
        "keep": keep_fraction(docs),
        "runs": [
            {"key": k, "config": cid, "label": f"{cid} · {curves[cid]['label']}", "values": nested(energy[k])}
            for k, cid in RUNS
        ],
        "tensors": [{"id": t, "label": label} for t, label in TENSORS],
        "groups": [{"id": g, "label": label} for g, label in GROUPS],
        "selectors": [{"id": s, "label": label} for s, label in SELECTORS],
        "defaults": DEFAULTS,
    }


# ------------------------------------------------------------------------------------------------ the layout
def table(values: Mapping[str, Mapping[str, float]], keep: float, selectors: list[str]) -> dict[str, Any]:
    """One run and tensor: per group and selector the share, its text as results.md prints it, and the share
    over the keep fraction; selectors the run lacks are "n/a" (share None)."""
    out: dict[str, Any] = {}
    for g, by_sel in values.items():
        row: dict[str, Any] = {}
        for s in selectors:
            v = by_sel.get(s)
            if v is None:
                row[s] = {"share": None, "text": "n/a", "vs_keep": None, "vs_keep_text": "n/a"}
            else:
                row[s] = {
                    "share": v,
                    "text": fmt.fixed(v, 3),
                    "vs_keep": v / keep,
                    "vs_keep_text": fmt.ratio_x(v / keep, 1),
                }
        out[g] = row
    return out


FORMATS: tuple[tuple[str, list[Any]], ...] = (
    ("fixed", [0.0125, 3]),
    ("fixed", [0.0135, 3]),
    ("fixed", [0.0005, 3]),
    ("fixed", [8.829755881887115e-06, 3]),
    ("fixed", [0.9995, 3]),
    ("ratioX", [0.25, 1]),
    ("ratioX", [10.25, 1]),
    ("ratioX", [0.05, 1]),
)
_FMT = {"fixed": fmt.fixed, "ratioX": fmt.ratio_x}


def cases(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """Every row of the vendored results.md §2 (each run and tensor, all four groups), and the formats."""
    p = payload(docs)
    sels = [s["id"] for s in p["selectors"]]
    out: list[dict[str, Any]] = []
    for run in p["runs"]:
        for t, _ in TENSORS:
            values = run["values"][t]
            out.append(
                {
                    "id": f"§2 {run['key']} {t}",
                    "fn": "table",
                    "args": [values, p["keep"], sels],
                    "want": table(values, p["keep"], sels),
                }
            )
    for fn, args in FORMATS:
        out.append({"id": f"format {fn}", "fn": fn, "args": args, "want": _FMT[fn](*args)})
    return out
