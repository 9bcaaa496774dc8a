"""Precision for training formats, by the inference series' ADC noise rule (conventions.md A13).

Rule: an ADC whose full scale is the output's peak adds noise of relative RMS crest x 2^-ENOB x 2/sqrt(12).
Setting that equal to a number format's own relative rounding error e gives the ENOB that matches the
format: log2(crest x 2 / (sqrt(12) x e)). Here e is measured by rounding a test tensor to the format.

Every number here is the same on every machine. Rounding to a format is element-wise (exact in IEEE
arithmetic); the sums behind the RMS values are ``math.fsum`` (correctly rounded, so independent of the
order NumPy's vector units would add in), and log2 and 2^x go through ``decimal`` (correctly rounded
software arithmetic) rather than the C library, whose results may differ in the last bit between builds.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from decimal import Context, Decimal

import numpy as np

from site_builder.datatypes import dataclass

RNG_SEED = 20261004  # presets.yaml flop_share_constants.rng_seed
TENSOR_SIZES: tuple[int, ...] = (4096, 16384, 65536)
BIT_PLANES = 8  # planes of the noise factor quoted (the experiment's default optics runs use 8)


@dataclass(frozen=True)
class FloatFormat:
    """A binary floating-point format: significand bits (implicit bit included), smallest normal exponent,
    largest finite value, and the value a per-tensor scale maps the tensor's peak to (None: no scaling)."""

    name: str
    significand_bits: int
    min_exponent: int
    max_value: float
    scale_peak_to: float | None = None

    @property
    def mantissa_bits(self) -> int:
        """Stored fraction bits (the implicit leading bit left out)."""
        return self.significand_bits - 1

    @property
    def exponent_bits(self) -> int:
        """Bits of the biased exponent: the bias is 1 - min_exponent = 2^(bits-1) - 1."""
        return (1 - self.min_exponent).bit_length() + 1

    @property
    def total_bits(self) -> int:
        """Sign, exponent and mantissa bits."""
        return 1 + self.exponent_bits + self.mantissa_bits


BF16 = FloatFormat("BF16", 8, -126, 3.3895313892515355e38)
FP8_E5M2 = FloatFormat("FP8 E5M2", 3, -14, 57344.0, scale_peak_to=57344.0)
FORMATS: tuple[FloatFormat, ...] = (FP8_E5M2, BF16)


def round_to_format(x: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Round-to-nearest-even into ``fmt`` (subnormals kept, overflow saturated), with the per-tensor scale
    applied and undone when the format asks for one."""
    peak = float(np.max(np.abs(x)))
    scale = fmt.scale_peak_to / peak if fmt.scale_peak_to and peak > 0 else 1.0
    v = x * scale
    _, e = np.frexp(v)
    exp = np.maximum(e - 1, fmt.min_exponent)
    quantum = np.ldexp(1.0, exp - (fmt.significand_bits - 1))
    r = np.clip(np.round(v / quantum) * quantum, -fmt.max_value, fmt.max_value)
    return r / scale


def sum_of_squares(x: np.ndarray) -> float:
    """Σ x², correctly rounded: the squares are exact element-wise products' roundings and ``math.fsum``
    adds them without depending on order (``np.sum`` and ``np.linalg.norm`` add in an order set by the
    CPU's vector units and the BLAS build)."""
    return math.fsum((x * x).tolist())


def crest_factor(x: np.ndarray) -> float:
    """Peak over RMS value."""
    return float(np.max(np.abs(x))) / math.sqrt(sum_of_squares(x) / len(x))


def relative_rounding_error(x: np.ndarray, fmt: FloatFormat) -> float:
    """RMS rounding error over RMS value."""
    return math.sqrt(sum_of_squares(round_to_format(x, fmt) - x)) / math.sqrt(sum_of_squares(x))


_DEC = Context(prec=40)
_LN2 = Decimal(2).ln(_DEC)


def log2(x: float) -> float:
    """log2 of a positive float, computed to 40 digits in software and then rounded to a float."""
    return float(_DEC.divide(Decimal(x).ln(_DEC), _LN2))


def exp2(x: float) -> float:
    """2^x, computed to 40 digits in software and then rounded to a float."""
    return float(_DEC.multiply(Decimal(x), _LN2).exp(_DEC))


def enob_to_match(crest: float, rel_error: float) -> float:
    """The ENOB whose read-out noise equals a relative RMS error ``rel_error`` at this crest factor."""
    return log2(crest * 2.0 / (math.sqrt(12.0) * rel_error))


def crest_for_enob(enob: float, rel_error: float) -> float:
    """The crest factor at which ``enob_to_match`` returns ``enob`` (the rule inverted)."""
    return exp2(enob) * math.sqrt(12.0) * rel_error / 2.0


def test_tensor(size: int, seed: int = RNG_SEED) -> np.ndarray:
    """A gradient-like tensor: ``size`` standard normal values (a fresh seeded generator per size). Its crest
    factor grows with its size, from about 3.6 at 4,096 values to about 5 at 65,536."""
    return np.random.default_rng(seed).standard_normal(size)


@dataclass(frozen=True)
class EnobRow:
    size: int
    crest: float
    format: str
    rel_error: float
    enob: float

    def as_dict(self) -> dict[str, float | int | str]:
        return asdict(self)


def enob_table(sizes: tuple[int, ...] = TENSOR_SIZES, formats: tuple[FloatFormat, ...] = FORMATS) -> list[EnobRow]:
    """ENOB matching each format's rounding on each test tensor."""
    rows: list[EnobRow] = []
    for size in sizes:
        x = test_tensor(size)
        c = crest_factor(x)
        for fmt in formats:
            e = relative_rounding_error(x, fmt)
            rows.append(EnobRow(size, c, fmt.name, e, enob_to_match(c, e)))
    return rows


def bit_plane_noise_factor(planes: int) -> float:
    """Read-out noise multiplier of recombining ``planes`` binary planes with weights 2^b: sqrt(sum 4^b)."""
    return math.sqrt(sum(4**b for b in range(planes)))
