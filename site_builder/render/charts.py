"""Data for the interactive charts, computed in Python; the browser only draws it."""

from __future__ import annotations

from typing import Any

from site_builder.errors import BuildError
from site_builder.models import experiment as m
from site_builder.results.experiment import groups_by_id, short_label
from site_builder.results_doc import ResultsDoc
from site_builder.site import Inputs

# (configuration id, legend name, shown at first)
LOSS_SERIES = (
    ("A", "A · AdamW", True),
    ("B", "B · top-k, 2-D 64×64", True),
    ("C-1d256", "C · low band, 1-D 256", True),
    ("C-2d64", "C · low band, 2-D 64×64", True),
    ("D", "D · calibrated band", True),
    ("F-random", "F · random band", True),
    ("E-enob8-p8", "E · optics ENOB 8, 8 planes", True),
    ("E-enob10-p8", "E · optics ENOB 10, 8 planes", True),
    ("E-enob12-p8", "E · optics ENOB 12, 8 planes", False),
    ("E-enob6-p8", "E · optics ENOB 6, 8 planes", False),
    ("E-enob8-p4", "E · optics ENOB 8, 4 planes", False),
    ("E-enob8-p12", "E · optics ENOB 8, 12 planes", False),
)


def loss_curves(inputs: Inputs) -> dict[str, Any]:
    rows = groups_by_id(inputs.experiment)
    series = []
    for cid, name, visible in LOSS_SERIES:
        runs = inputs.experiment.runs_of(rows[cid].group)
        c = m.mean_curve(runs)
        series.append(
            {
                "id": cid,
                "name": name,
                "label": short_label(rows[cid]),
                "seeds": len(runs),
                "visible": visible,
                "steps": list(c.steps),
                "wire_gb": [w / 1e9 for w in c.wire_bytes],
                "mean": list(c.mean),
                "low": list(c.low),
                "high": list(c.high),
            }
        )
    return {"series": series}


CHARTS = {"loss_curves": loss_curves}


def chart_payloads(names: list[str], inputs: Inputs, docs: dict[str, ResultsDoc]) -> dict[str, Any]:
    out = {}
    for name in names:
        if name not in CHARTS:
            raise BuildError(f"chart {name!r}: expected one of {', '.join(sorted(CHARTS))}, found no such chart")
        out[name] = CHARTS[name](inputs)
    return out
