"""The explorers: interactive charts whose numbers the browser recomputes with a JavaScript port.

Each explorer module gives

* ``payload(docs)``: the data its page code draws, built from the results documents (never from the
  models' inputs, so the renderer needs nothing but the documents);
* ``cases(docs)``: parity cases, ``{"fn": port function, "args": [...], "want": value}``, computed by
  the Python model; ``make results`` writes them to ``data/explorers/<name>.json`` (drift-checked),
  and the browser tests require the port to give the same values;
* its port ``static/js/ports/<name>.js`` (pure functions on ``window.Ports[<port>]``, no DOM) and its
  page code ``static/js/explorers/<name>.js``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from site_builder.explorers import (
    amdahl,
    breakeven,
    captured_energy,
    link_kernel,
    loss_curves,
    step_mask,
    three_trainers,
    transit,
)
from site_builder.producers import Produced

Docs = Mapping[str, Produced]
FMT = ("js/ports/fmt.js",)  # site_builder/fmt.py's formats, one port shared by several explorers


@dataclass(frozen=True)
class Explorer:
    name: str
    port: str  # the port's name on window.Ports
    payload: Callable[[Docs], dict[str, Any]]
    cases: Callable[[Docs], list[dict[str, Any]]]
    shared: tuple[str, ...] = ()  # script files under assets/ its port needs first (ports used by several)

    @property
    def scripts(self) -> tuple[str, str]:
        """The two script files under assets/js/, port first."""
        return f"js/ports/{self.name}.js", f"js/explorers/{self.name}.js"

    def cases_json(self, docs: Docs) -> str:
        doc = {"explorer": self.name, "port": self.port, "cases": self.cases(docs)}
        return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


EXPLORERS: dict[str, Explorer] = {
    e.name: e
    for e in (
        Explorer("loss_curves", "lossCurves", loss_curves.payload, loss_curves.cases),
        Explorer("amdahl", "amdahl", amdahl.payload, amdahl.cases),
        Explorer("step_mask", "stepMask", step_mask.payload, step_mask.cases, FMT),
        Explorer("three_trainers", "threeTrainers", three_trainers.payload, three_trainers.cases),
        Explorer("transit", "transit", transit.payload, transit.cases, FMT),
        Explorer("captured_energy", "capturedEnergy", captured_energy.payload, captured_energy.cases, FMT),
        Explorer("link_kernel", "linkKernel", link_kernel.payload, link_kernel.cases, FMT),
        Explorer("breakeven", "breakeven", breakeven.payload, breakeven.cases, FMT),
    )
}
