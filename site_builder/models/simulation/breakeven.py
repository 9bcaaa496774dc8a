"""Break-evens by bisection."""

from __future__ import annotations

import math
from collections.abc import Callable

from site_builder.datatypes import dataclass

REL_TOL = 1e-4


@dataclass(frozen=True)
class Crossing:
    """Where a challenger's time to target equals an incumbent's, and on which side the challenger wins."""

    value: float | None  # the crossing, or None when there is none in range
    wins: str  # "below", "above", "never" or "always"


def bisect(f: Callable[[float], float], lo: float, hi: float, rel_tol: float = REL_TOL) -> float:
    """A root of f in [lo, hi] (f(lo) and f(hi) of opposite signs), to a relative tolerance, halving in log space."""
    flo = f(lo)
    if flo == 0:
        return lo
    if (flo < 0) == (f(hi) < 0):
        raise ValueError("f does not change sign on the interval")
    while hi - lo > rel_tol * lo:
        mid = math.sqrt(lo * hi)
        fm = f(mid)
        if fm == 0:
            return mid
        if (fm < 0) == (flo < 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return math.sqrt(lo * hi)


def crossing(advantage: Callable[[float], float], lo: float, hi: float, rel_tol: float = REL_TOL) -> Crossing:
    """``advantage(x)`` = challenger's time − incumbent's; negative means the challenger wins at x."""
    a_lo, a_hi = advantage(lo), advantage(hi)
    if a_lo < 0 and a_hi < 0:
        return Crossing(None, "always")
    if a_lo >= 0 and a_hi >= 0:
        return Crossing(None, "never")
    x = bisect(advantage, lo, hi, rel_tol)
    return Crossing(x, "below" if a_lo < 0 else "above")
