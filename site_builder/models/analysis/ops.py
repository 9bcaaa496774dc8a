"""Op classes of the FLOP ledger and the cost conventions (conventions.md A2, A3).

Counts are exact Python integers: every convention used here (matmul 2mnk, real FFT 2.5 n log2 n with
n a power of two, complex multiply 6, complex add 2) gives an integer, so sums are exact and the
summation order cannot change a result. Totals are still added in the inference ledger's order
(dense, attention, transform, spectral, other).
"""

from __future__ import annotations

from dataclasses import fields

from site_builder.datatypes import dataclass

CMUL = 6  # FLOPs of a complex multiply
CADD = 2  # FLOPs of a complex add

CLASSES: tuple[str, ...] = ("dense", "attention", "transform", "spectral_w", "spectral_d", "other")


@dataclass(frozen=True)
class Ops:
    """FLOPs by op class.

    ``spectral_w``: Fourier-domain products whose second operand is a weight spectrum (a mask written
    once per optimizer step could hold it). ``spectral_d``: products of two data-dependent spectra
    (data-by-data). Both are the inference ledger's ``spectral`` class, split by operand.
    """

    dense: int = 0
    attention: int = 0
    transform: int = 0
    spectral_w: int = 0
    spectral_d: int = 0
    other: int = 0

    def __add__(self, o: Ops) -> Ops:
        return Ops(*(getattr(self, f.name) + getattr(o, f.name) for f in fields(Ops)))

    def scaled(self, k: int) -> Ops:
        return Ops(*(getattr(self, f.name) * k for f in fields(Ops)))

    @property
    def spectral(self) -> int:
        return self.spectral_w + self.spectral_d

    @property
    def optical(self) -> int:
        """Transform and all Fourier-domain products: what a 4f engine could take."""
        return self.transform + self.spectral_w + self.spectral_d

    @property
    def static(self) -> int:
        """Transform and weight-masked products: what once-per-step masks could take."""
        return self.transform + self.spectral_w

    @property
    def total(self) -> int:
        return self.dense + self.attention + self.transform + self.spectral + self.other

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in CLASSES} | {"total": self.total}


def log2_exact(n: int) -> int:
    """log2 of a power of two, as an integer."""
    if n < 1 or n & (n - 1):
        raise ValueError(f"{n} is not a power of two")
    return n.bit_length() - 1


def rfft(n: int) -> int:
    """FLOPs of a real FFT of length n: 2.5 n log2 n (an integer for n >= 2)."""
    return 5 * n * log2_exact(n) // 2


def bins(n: int) -> int:
    """Frequency bins of a real length-n transform."""
    return n // 2 + 1


def padded_length(length: int) -> int:
    """Smallest power of two >= 2L: the FFT size of a causal long convolution of length L."""
    if length < 1:
        raise ValueError(f"sequence length must be positive, found {length}")
    n = 1
    while n < 2 * length:
        n *= 2
    return n
