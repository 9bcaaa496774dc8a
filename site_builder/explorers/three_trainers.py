"""Three trainers: the hardware loss of in-silico, physics-aware and in-situ training over the steps, at a
fabrication error and read-out noise the reader picks from the simulated grid (``data/trainers``).

The page code picks the grid point (``pointIndex``), averages each curve's last records into the final
loss and prints it as the results cell prints it (``finals``, ``sci``): the port
``static/js/ports/three_trainers.js``, held equal to ``site_builder.models.trainers.final_loss`` and
``site_builder.fmt.sci`` by the cases below.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import fmt
from site_builder.results.producers import ResultsText

# Values on which a port of Python's '{:.2e}' most easily goes wrong: exact binary ties (Python rounds
# half to even, JavaScript's toExponential half up), carries into the next power of ten, zero, signs,
# the shortest and longest exponents, subnormals.
SCI_EDGES: tuple[float, ...] = (
    0.0,
    -0.0,
    1.0,
    1.125,
    1.375,
    0.0001220703125,  # 2**-13 = 1.220703125e-04
    1.5e-05,
    9.995,
    9.9951,
    0.00999999,
    -4.935e-03,
    123456.0,
    1e100,
    1.7976931348623157e308,
    5e-324,
    2.2250738585072014e-308,
)


def _data(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    return docs["trainers"].data


def payload(docs: Mapping[str, ResultsText]) -> dict[str, Any]:
    d = _data(docs)
    figures = docs["trainers"].parsed["figures"]
    return {
        "fab_levels": d["fab_levels"],
        "noise_levels": d["noise_levels"],
        "default": d["default"],
        "trainers": d["trainers"],
        "steps": d["steps"],
        "tail": d["tail"],
        "twin": d["twin"],
        "points": [{"fab": p["fab"], "noise": p["noise"], "loss": p["loss"]} for p in d["points"]],
        "final_steps": figures["trn.setting.final_steps"]["text"],
        "curve_steps": curve_steps(docs),
    }


def curve_steps(docs: Mapping[str, ResultsText]) -> list[int]:
    """The steps of results.md §3's table (the first setting over training): there, the curves' points are the
    figures ``trn.curve.STEP.TRAINER`` and ``trn.curve.STEP.twin``, which the CSV keys."""
    from site_builder.results.trainers import CURVE_STEPS

    figures = docs["trainers"].parsed["figures"]
    trainers = [t["id"] for t in _data(docs)["trainers"]]
    for step in CURVE_STEPS:
        for k in [*trainers, "twin"]:
            if f"trn.curve.{step}.{k}" not in figures:
                raise ValueError(f"data/trainers/results.json: expected the figure trn.curve.{step}.{k}, found none")
    return list(CURVE_STEPS)


def cases(docs: Mapping[str, ResultsText]) -> list[dict[str, Any]]:
    """Grid lookup, final losses and their text at every grid point, and the formatter on hard values."""
    from site_builder.models.trainers import final_loss
    from site_builder.results.trainers import final_key, loss_text

    d = _data(docs)
    figures = docs["trainers"].parsed["figures"]
    fabs, noises, tail = d["fab_levels"], d["noise_levels"], d["tail"]
    out: list[dict[str, Any]] = []
    grid = [{"fab": p["fab"], "noise": p["noise"]} for p in d["points"]]
    index = {(p["fab"], p["noise"]): i for i, p in enumerate(grid)}
    for fab in [*fabs, 7]:
        for noise in [*noises, 4]:
            want = index.get((fab, noise), -1)
            out.append({"id": f"{fab}.{noise}", "fn": "pointIndex", "args": [grid, fab, noise], "want": want})
    for p in d["points"]:
        want = {}
        for k, curve in p["loss"].items():
            value = final_loss(curve, tail)
            text = loss_text(value)
            assert text == figures[final_key(p["fab"], p["noise"], k)]["text"]
            want[k] = {"value": value, "text": text}
        out.append({"id": f"{p['fab']}.{p['noise']}", "fn": "finals", "args": [p["loss"], tail], "want": want})
    twin = final_loss(d["twin"], tail)
    assert loss_text(twin) == figures["trn.final.twin"]["text"]
    out.append(
        {"id": "twin", "fn": "finalOf", "args": [d["twin"], tail], "want": {"value": twin, "text": loss_text(twin)}}
    )
    for x in SCI_EDGES:
        out.append({"id": repr(x), "fn": "sci", "args": [x, 2], "want": loss_text(x)})
    for x in (1.125, 2.5, 0.125, 2.5e-05, 0.000123456789):
        for digits in (0, 1, 3, 6):
            out.append({"id": f"{x!r}/{digits}", "fn": "sci", "args": [x, digits], "want": fmt.sci(x, digits)})
    return out
