"""Number formatting: every number a reader sees is formatted here, once, in Python."""

from __future__ import annotations

import math


def _finite(x: float) -> float:
    if not math.isfinite(x):
        raise ValueError(f"cannot format non-finite number {x!r}")
    return x


def fixed(x: float, digits: int) -> str:
    """``1.646`` style: a fixed number of decimals."""
    return f"{_finite(x):.{digits}f}"


def grouped(x: float, digits: int = 0) -> str:
    """``55,417,152`` or ``2,667`` style: thousands separators."""
    return f"{_finite(x):,.{digits}f}"


def integer(n: int) -> str:
    """An exact integer with thousands separators."""
    return f"{int(n):,}"


def pct(x: float, digits: int = 2) -> str:
    """A share (0..1) as a percentage: ``0.1418 -> '14.18%'``."""
    return f"{_finite(x) * 100:.{digits}f}%"


def ratio_x(x: float, digits: int = 3) -> str:
    """A ratio, with an ``x`` after it: ``1.139x``."""
    return f"{_finite(x):.{digits}f}x"


def mean_sd(mean: float, sd: float, digits: int = 3) -> str:
    """``1.646 ± 0.005``."""
    return f"{_finite(mean):.{digits}f} ± {_finite(sd):.{digits}f}"


def unit(x: float, digits: int, suffix: str) -> str:
    """A value with a unit after a space: ``1.63 s``, ``8.87 kJ``."""
    return f"{_finite(x):,.{digits}f} {suffix}"


def sci(x: float, digits: int = 2) -> str:
    """``4.76e-06``."""
    return f"{_finite(x):.{digits}e}"
