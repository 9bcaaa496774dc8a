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

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from site_builder.results.producers import ResultsText

Docs = Mapping[str, "ResultsText"]
FMT = ("js/ports/fmt.js",)  # site_builder/fmt.py's formats, one port shared by several explorers
NUM = ("js/ports/num.js",)  # math.fsum, fmean and int / int, one port shared by several explorers
DATA_FOLDER = "explorers"  # the site's folder of the explorers' payloads (Explorer.data_file)


@dataclass(frozen=True)
class Explorer:
    """An explorer by name; its module (and the model code it imports) is imported only when its payload or
    cases are computed, so a build that finds both in the results cache imports no model."""

    name: str
    port: str  # the port's name on window.Ports
    shared: tuple[str, ...] = ()  # script files under assets/ its port needs first (ports used by several)

    @property
    def module_name(self) -> str:
        return f"{__name__}.{self.name}"

    @property
    def module(self) -> ModuleType:
        return importlib.import_module(self.module_name)

    @property
    def payload(self) -> Callable[[Docs], dict[str, Any]]:
        """``payload(docs)``: the data its page code draws."""
        return self.module.payload  # type: ignore[no-any-return]

    @property
    def cases(self) -> Callable[[Docs], list[dict[str, Any]]]:
        """``cases(docs)``: its parity cases."""
        return self.module.cases  # type: ignore[no-any-return]

    @property
    def data_file(self) -> str:
        """Its payload's file in the site (compact JSON): one file every page showing the explorer loads, not a
        copy inside each page."""
        return f"{DATA_FOLDER}/{self.name}.json"

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
        Explorer("loss_curves", "lossCurves", FMT + NUM),
        Explorer("amdahl", "amdahl", FMT + NUM),
        Explorer("step_mask", "stepMask", FMT + NUM),
        Explorer("three_trainers", "threeTrainers", NUM),
        Explorer("transit", "transit", FMT),
        Explorer("captured_energy", "capturedEnergy", FMT),
        Explorer("link_kernel", "linkKernel", FMT),
        Explorer("breakeven", "breakeven", FMT),
    )
}
