"""Loss curves: validation loss against steps or wire bytes, the mean over seeds with the seeds' range, and the
steps ladder marked on them.

The series come in three groups the reader can show or hide as a whole: the baseline and the fixed bands; the
emulated optics as repaired (feedback of the band sent, with the full scale re-set every 100 steps, and the
one run with the band-sent feedback alone); and the optics' first design (full scale fixed, feedback of the
exact band), whose six runs all diverged. The steps ladder (results.md §4 of our experiment results) is drawn
as a horizontal line at the chosen target loss with a mark where each configuration first reaches it (the
mean over its seeds), and printed per configuration as §4 prints it.

The payload is the experiment results' ``data.curves`` (per seed), ``data.ladder`` and
``data.steps_per_seed``; the port (``static/js/ports/loss_curves.js``) computes the seeds' mean and range,
the wire axis, the steps to each target and where a mark sits on the wire axis.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from site_builder import fmt
from site_builder.results.producers import ResultsText

GROUPS = (
    ("main", "Baseline and fixed bands"),
    ("repaired", "Optics, repaired (feedback of the band sent)"),
    ("first", "Optics, first design (diverged)"),
)
# (configuration id, legend name, group, shown at first)
SERIES = (
    ("A", "A · AdamW", "main", True),
    ("B", "B · top-k, 2-D 64×64", "main", True),
    ("C-1d256", "C · low band, 1-D 256", "main", True),
    ("C-2d64", "C · low band, 2-D 64×64", "main", True),
    ("D", "D · calibrated band", "main", True),
    ("F-random", "F · random band", "main", True),
    ("E-enob8-p8", "E · optics ENOB 8, 8 planes", "repaired", True),
    ("E-enob10-p8", "E · optics ENOB 10, 8 planes", "repaired", True),
    ("E-enob12-p8", "E · optics ENOB 12, 8 planes", "repaired", False),
    ("E-enob6-p8", "E · optics ENOB 6, 8 planes", "repaired", False),
    ("E-enob8-p4", "E · optics ENOB 8, 4 planes", "repaired", False),
    ("E-enob8-p12", "E · optics ENOB 8, 12 planes", "repaired", False),
    ("Ef-enob8-p8", "E · ENOB 8, 8 planes, full scale fixed", "repaired", False),
    ("Ex-enob6-p8", "E first design · ENOB 6, 8 planes", "first", False),
    ("Ex-enob8-p8", "E first design · ENOB 8, 8 planes", "first", False),
    ("Ex-enob10-p8", "E first design · ENOB 10, 8 planes", "first", False),
    ("Ex-enob12-p8", "E first design · ENOB 12, 8 planes", "first", False),
    ("Ex-enob8-p4", "E first design · ENOB 8, 4 planes", "first", False),
    ("Ex-enob8-p12", "E first design · ENOB 8, 12 planes", "first", False),
)
DEFAULT_TARGET = "3.158"  # the simulation's target: the fixed low band's final loss in 2-D 64×64 chunks


def _data(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    return docs["experiment"].data


def ladder(docs: Mapping[str, ResultsText]) -> list[dict[str, str]]:
    """The steps ladder's targets, highest first: each a configuration's final loss, as §4 prints it."""
    return [{"text": fmt.fixed(r["target"], 3), "config": r["config"]} for r in _data(docs)["ladder"]]


EVAL_EVERY = "exp.setting.eval_every"


def payload(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    data = _data(docs)
    curves, steps = data["curves"], data["steps_per_seed"]
    targets = ladder(docs)
    return {
        "groups": [{"id": g, "name": name} for g, name in GROUPS],
        "ladder": targets,
        "default_target": DEFAULT_TARGET,
        # how often the runs were evaluated, as the registered figure prints it (the chart's caption says it)
        "eval_every": docs["experiment"].parsed["figures"][EVAL_EVERY]["text"],
        "series": [
            {
                "id": cid,
                "name": name,
                "group": group,
                "label": curves[cid]["label"],
                "visible": visible,
                "steps": curves[cid]["steps"],
                "seeds": curves[cid]["seeds"],
                "wire_bytes": curves[cid]["wire_bytes"],
                "steps_to": {t["text"]: steps[cid][t["text"]] for t in targets},
            }
            for cid, name, group, visible in SERIES
        ],
    }


# ------------------------------------------------------------------------------------------------ the model
def steps_to(per_seed: Sequence[int | None]) -> dict[str, Any]:
    """Steps to a target from each seed's first evaluation at or below it, as results.md §4 prints them."""
    from site_builder.models.experiment import Steps
    from site_builder.results.experiment import steps_text

    s = Steps(tuple(per_seed))
    return {"reached": s.reached, "seeds": len(per_seed), "mean": s.mean, "text": steps_text(s)}


def wire_at(steps: Sequence[float], wire: Sequence[float], step: float) -> float:
    """The cumulative wire bytes at ``step``, on the straight line between the evaluations around it (from the
    origin before the first): where a mark at a mean step count sits on the wire axis."""
    s0, w0 = 0.0, 0.0
    for s1, w1 in zip(steps, wire, strict=True):
        if step == s1:
            return w1
        if step < s1:
            return w0 + (w1 - w0) * (step - s0) / (s1 - s0)
        s0, w0 = s1, w1
    raise ValueError(f"step {step} is after the last evaluation, {s0}")


FORMATS: tuple[tuple[str, list[Any]], ...] = (
    ("grouped", [2666.6666666666665, 0]),
    ("grouped", [533.3333333333334, 0]),
    ("grouped", [2500.5, 0]),
    ("grouped", [1234567.0, 0]),
)


def cases(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """The port's band and wire-axis functions on every series drawn, steps to every target of the ladder for
    every series (every cell of §4 for the configurations shown), where each mark sits on the wire axis, and
    the format §4 prints steps with."""
    from site_builder.models.experiment import seed_band, seed_mean

    p = payload(docs)
    out: list[dict[str, Any]] = []
    for s in p["series"]:
        cid = s["id"]
        mean, low, high = seed_band(s["seeds"])
        out.append({"id": cid, "fn": "band", "args": [s["seeds"]], "want": {"mean": mean, "low": low, "high": high}})
        gb = [w / 1e9 for w in seed_mean(s["wire_bytes"])]
        out.append({"id": cid, "fn": "wireGB", "args": [s["wire_bytes"]], "want": gb})
        for t in p["ladder"]:
            st = steps_to(s["steps_to"][t["text"]])
            out.append({"id": f"§4 {cid} {t['text']}", "fn": "stepsTo", "args": [s["steps_to"][t["text"]]], "want": st})
            if st["mean"] is not None:
                args = [s["steps"], gb, st["mean"]]
                out.append({"id": f"mark {cid} {t['text']}", "fn": "wireAt", "args": args, "want": wire_at(*args)})
    for fn, args in FORMATS:
        out.append({"id": f"format {fn}", "fn": fn, "args": args, "want": fmt.grouped(*args)})
    return out
