"""Numeric checks of the backward formulas of a causal long convolution, with NumPy.

For y[i] = sum_k h[k] u[i-k] (i < L) and a loss with output gradient g: dU[j] = sum_i g[i] h[i-j] and
dH[k] = sum_i g[i] u[i-k]. The spectral forms are IFFT(G·conj(H)) and IFFT(G·conj(U)) at the padded
length n = pow2 >= 2L, keeping the first L outputs. Each is compared with the direct sums and with
central finite differences of the loss sum_i g[i] y[i].

The measured errors are round-off: their last digits change with the CPU's vector units and with the
order in which the FFT, ``np.convolve`` and the dot products add. So the results file shows the bounds
below, which hold on every machine (``check_length`` results are asserted against them by the unit tests
and by ``within_bounds`` when the results are written), and never the measured values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict

import numpy as np

from site_builder.datatypes import dataclass

from .ops import padded_length
from .precision import RNG_SEED

CHECK_LENGTHS: tuple[int, ...] = (16, 256, 1000, 2048)
FD_STEP = 1e-3
FD_POINTS = 6  # indices per length checked by finite differences

# Bounds on the largest relative error, for every length checked. Measured on x86-64 with and without
# AVX2/AVX-512: at most 7.4e-16 against the direct sums (a few units of double rounding; FFT round-off grows
# like eps log n) and at most 1.4e-11 against finite differences (the loss is bilinear, so the central
# difference has no truncation error: what remains is the loss's rounding divided by the step). Each bound
# leaves a margin of more than ten times over the largest value seen.
DIRECT_BOUND = 1e-14
FD_BOUND = 1e-9


def causal_conv(h: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Direct causal convolution, first L outputs."""
    return np.convolve(h, u)[: len(u)]


def correlate_direct(g: np.ndarray, v: np.ndarray) -> np.ndarray:
    """out[j] = sum_{i >= j} g[i] v[i-j], by direct summation."""
    return np.convolve(g[::-1], v)[: len(g)][::-1]


def spectral_grads(u: np.ndarray, h: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(dU, dH) by the spectral formulas at the padded length."""
    L = len(u)
    n = padded_length(L)
    U, H, G = np.fft.rfft(u, n), np.fft.rfft(h, n), np.fft.rfft(g, n)
    du = np.fft.irfft(G * np.conj(H), n)[:L]
    dh = np.fft.irfft(G * np.conj(U), n)[:L]
    return du, dh


def _rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def _finite_difference(
    loss_of: Callable[[np.ndarray], float], x: np.ndarray, idx: np.ndarray, step: float
) -> np.ndarray:
    out = np.empty(len(idx))
    for t, j in enumerate(idx):
        xp, xm = x.copy(), x.copy()
        xp[j] += step
        xm[j] -= step
        out[t] = (loss_of(xp) - loss_of(xm)) / (2 * step)
    return out


@dataclass(frozen=True)
class GradCheck:
    length: int
    padded: int
    du_vs_direct: float
    dh_vs_direct: float
    du_vs_fd: float
    dh_vs_fd: float

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)

    @property
    def worst_direct(self) -> float:
        return max(self.du_vs_direct, self.dh_vs_direct)

    @property
    def worst_fd(self) -> float:
        return max(self.du_vs_fd, self.dh_vs_fd)

    def within_bounds(self) -> bool:
        return self.worst_direct < DIRECT_BOUND and self.worst_fd < FD_BOUND


def check_length(length: int, seed: int = RNG_SEED) -> GradCheck:
    """Largest relative errors of the spectral gradients at one length."""
    rng = np.random.default_rng(seed + length)
    u = rng.standard_normal(length)
    h = rng.standard_normal(length) * np.exp(-np.arange(length) / (length / 8))
    g = rng.standard_normal(length)
    du, dh = spectral_grads(u, h, g)
    du_direct, dh_direct = correlate_direct(g, h), correlate_direct(g, u)
    idx = rng.choice(length, size=min(FD_POINTS, length), replace=False)
    du_fd = _finite_difference(lambda x: float(g @ causal_conv(h, x)), u, idx, FD_STEP)
    dh_fd = _finite_difference(lambda x: float(g @ causal_conv(x, u)), h, idx, FD_STEP)
    return GradCheck(
        length=length,
        padded=padded_length(length),
        du_vs_direct=_rel(du, du_direct),
        dh_vs_direct=_rel(dh, dh_direct),
        du_vs_fd=_rel(du[idx], du_fd),
        dh_vs_fd=_rel(dh[idx], dh_fd),
    )


def gradient_checks(lengths: tuple[int, ...] = CHECK_LENGTHS) -> list[GradCheck]:
    return [check_length(n) for n in lengths]
