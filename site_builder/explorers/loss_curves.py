"""Loss curves: validation loss against steps or wire bytes, the mean over seeds with the seeds' range."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder.producers import Produced

# (configuration id, legend name, shown at first)
SERIES = (
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


def _curves(docs: Mapping[str, Produced]) -> dict[str, Any]:
    return docs["experiment"].data["curves"]


def payload(docs: Mapping[str, Produced]) -> dict[str, Any]:
    curves = _curves(docs)
    return {
        "series": [
            {
                "id": cid,
                "name": name,
                "label": curves[cid]["label"],
                "visible": visible,
                "steps": curves[cid]["steps"],
                "seeds": curves[cid]["seeds"],
                "wire_bytes": curves[cid]["wire_bytes"],
            }
            for cid, name, visible in SERIES
        ]
    }


def cases(docs: Mapping[str, Produced]) -> list[dict[str, Any]]:
    """The port's band and wire-axis functions against the experiment model, on every series drawn."""
    from site_builder.models.experiment import seed_band, seed_mean

    curves = _curves(docs)
    out: list[dict[str, Any]] = []
    for cid, _, _ in SERIES:
        c = curves[cid]
        mean, low, high = seed_band(c["seeds"])
        out.append({"id": cid, "fn": "band", "args": [c["seeds"]], "want": {"mean": mean, "low": low, "high": high}})
        out.append(
            {
                "id": cid,
                "fn": "wireGB",
                "args": [c["wire_bytes"]],
                "want": [w / 1e9 for w in seed_mean(c["wire_bytes"])],
            }
        )
    return out
