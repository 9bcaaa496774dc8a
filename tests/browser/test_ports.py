"""Every explorer's JavaScript port, run in Chromium on its parity cases, equals the Python model.

The cases come from data/explorers/<name>.json (written by `make results` from the Python models and
drift-checked). Raw values must agree to 1e-12 relative; strings (printed values) character for
character.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from site_builder.explorers import EXPLORERS
from tests.conftest import PROJECT

pytestmark = pytest.mark.browser

REL = 1e-12

RUN_CASES = """([port, cases]) => cases.map((c) => {
  const fn = window.Ports[port][c.fn];
  if (typeof fn !== "function") return {error: "no function " + c.fn};
  try { return {got: fn.apply(null, c.args)}; } catch (e) { return {error: String(e)}; }
})"""


def mismatch(got: Any, want: Any, where: str = "") -> str | None:
    """The first place where ``got`` differs from ``want``, or None."""
    if isinstance(want, bool) or want is None or isinstance(want, str):
        return None if got == want else f"{where}: {got!r} != {want!r}"
    if isinstance(want, int | float):
        if not isinstance(got, int | float) or isinstance(got, bool):
            return f"{where}: {got!r} is not a number"
        if want == got:
            return None
        if math.isfinite(want) and abs(got - want) <= REL * max(abs(want), abs(got)):
            return None
        return f"{where}: {got!r} != {want!r}"
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return f"{where}: length {len(got) if isinstance(got, list) else got!r} != {len(want)}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            if (m := mismatch(g, w, f"{where}[{i}]")) is not None:
                return m
        return None
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            return f"{where}: keys {sorted(got) if isinstance(got, dict) else got!r} != {sorted(want)}"
        for k in want:
            if (m := mismatch(got[k], want[k], f"{where}.{k}")) is not None:
                return m
        return None
    return f"{where}: unexpected case value {want!r}"


def test_mismatch_finds_differences():
    assert mismatch([1.0, {"a": "x"}], [1.0, {"a": "x"}]) is None
    assert mismatch(1.0 + 1e-15, 1.0) is None
    assert mismatch(1.0 + 1e-9, 1.0) is not None
    assert mismatch({"a": "1.10"}, {"a": "1.1"}) is not None
    assert mismatch([1.0], [1.0, 2.0]) is not None


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_port_equals_python_on_every_case(tab, server, name):
    explorer = EXPLORERS[name]
    doc = json.loads((PROJECT / "data" / "explorers" / f"{name}.json").read_text(encoding="utf-8"))
    assert doc["port"] == explorer.port and doc["cases"], "no parity cases"
    page = tab()
    errors: list[str] = []
    tab.on(page, "pageerror", lambda e: errors.append(str(e)))
    # a page of the site without chart code (the home page: the figure index was a 2,323-row page to load here)
    page.goto(server)
    for src in (*explorer.shared, explorer.scripts[0]):
        page.add_script_tag(url=server + "assets/" + src)
    results = page.evaluate(RUN_CASES, [explorer.port, doc["cases"]])
    assert errors == []
    bad = []
    for case, res in zip(doc["cases"], results, strict=True):
        label = f"{case.get('id', '')} {case['fn']}"
        if "error" in res:
            bad.append(f"{label}: {res['error']}")
        elif (m := mismatch(res["got"], case["want"])) is not None:
            bad.append(f"{label}{m}")
    assert bad == [], f"{len(bad)} of {len(results)} cases differ: {bad[:5]}"
