"""Section 6: the spectral backward formulas against direct sums and finite differences."""

from __future__ import annotations

import numpy as np
import pytest

from site_builder.models.analysis import checks


@pytest.fixture(scope="module")
def results() -> list[checks.GradCheck]:
    return checks.gradient_checks()


def test_lengths_include_a_non_power_of_two(results: list[checks.GradCheck]) -> None:
    by_len = {c.length: c for c in results}
    assert by_len[1000].padded == 2048


def test_spectral_matches_direct_sums(results: list[checks.GradCheck]) -> None:
    for c in results:
        assert c.du_vs_direct < 1e-14, c
        assert c.dh_vs_direct < 1e-14, c


def test_spectral_matches_finite_differences(results: list[checks.GradCheck]) -> None:
    for c in results:
        assert c.du_vs_fd < 1e-9, c
        assert c.dh_vs_fd < 1e-9, c


def test_direct_correlation_definition() -> None:
    g = np.array([1.0, 2.0, 3.0])
    h = np.array([5.0, 7.0, 11.0])
    # du[j] = sum_{i >= j} g[i] h[i - j]
    want = [1 * 5 + 2 * 7 + 3 * 11, 2 * 5 + 3 * 7, 3 * 5]
    assert checks.correlate_direct(g, h).tolist() == want
    assert checks.causal_conv(h, g).tolist() == [5.0, 2 * 5 + 7, 3 * 5 + 2 * 7 + 11]


def test_a_wrong_padding_fails() -> None:
    # Without the 2L padding the circular correlation wraps around: the check must be able to fail.
    rng = np.random.default_rng(1)
    h, g = rng.standard_normal((2, 64))
    du_circ = np.fft.irfft(np.fft.rfft(g) * np.conj(np.fft.rfft(h)), 64)
    assert np.max(np.abs(du_circ - checks.correlate_direct(g, h))) > 1e-3
