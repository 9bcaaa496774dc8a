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
import re
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from site_builder.datatypes import dataclass

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
        """The committed cases file's text: ``json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False)`` and a
        newline, character for character (:func:`dumps_indent1`)."""
        return dumps_indent1({"explorer": self.name, "port": self.port, "cases": self.cases(docs)}) + "\n"


_INF = float("inf")


def _float(o: float) -> str:
    if o != o or o in (_INF, -_INF):
        raise ValueError(f"Out of range float values are not JSON compliant: {o!r}")
    return float.__repr__(o)


def _key(k: Any) -> str:
    """A dict key as json.dumps writes it (it turns a number, a boolean or None into a string)."""
    if isinstance(k, str):
        return k
    if k is True or k is False or k is None:
        return "true" if k is True else "false" if k is False else "null"
    if isinstance(k, int):
        return int.__repr__(k)
    if isinstance(k, float):
        return _float(k)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")


def dumps_indent1(value: Any) -> str:
    """``json.dumps(value, indent=1, ensure_ascii=False, allow_nan=False)``, character for character, in one
    recursive pass: Python 3.11's encoder writes indented JSON through nested generators, which made the cases'
    text cost about half as much again as computing them. Raises ValueError for a NaN or an infinity and TypeError
    for what JSON cannot hold, as json.dumps does (the types are tested in its order)."""
    parts: list[str] = []
    add = parts.append
    string = json.encoder.encode_basestring  # type: ignore[attr-defined]

    def enc(o: Any, pad: str) -> None:
        if isinstance(o, str):
            add(string(o))
        elif o is None or o is True or o is False:
            add("null" if o is None else "true" if o is True else "false")
        elif isinstance(o, int):
            add(int.__repr__(o))
        elif isinstance(o, float):
            add(_float(o))
        elif isinstance(o, (list, tuple)):
            if not o:
                add("[]")
                return
            inner = pad + " "
            add("[" + inner)
            for i, x in enumerate(o):
                if i:
                    add("," + inner)
                enc(x, inner)
            add(pad + "]")
        elif isinstance(o, dict):
            if not o:
                add("{}")
                return
            inner = pad + " "
            add("{" + inner)
            for i, (k, v) in enumerate(o.items()):
                if i:
                    add("," + inner)
                add(string(_key(k)) + ": ")
                enc(v, inner)
            add(pad + "}")
        else:
            raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

    enc(value, "\n")
    return "".join(parts)


_CASES_HEAD = re.compile(r'\{\n "explorer": "[^"\n]*",\n "port": "[^"\n]*",\n "cases": \[\n')
_CASE_START = re.compile(r"^  [^ \]}]", re.MULTILINE)  # a line opening an item of the cases list (2nd level)


def case_count(text: str) -> int:
    """How many cases a cases file holds. A file laid out as :meth:`Explorer.cases_json` writes it (the drift check
    holds the committed ones to that, character for character) is counted from its lines: each case opens the only
    lines indented by exactly two spaces that do not close something. Any other text is parsed as JSON (0 when
    it is not a cases file)."""
    if _CASES_HEAD.match(text) and text.endswith("\n ]\n}\n"):
        return len(_CASE_START.findall(text))
    try:
        doc = json.loads(text)
    except ValueError:
        return 0
    cases = doc.get("cases") if isinstance(doc, dict) else None
    return len(cases) if isinstance(cases, list) else 0


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
