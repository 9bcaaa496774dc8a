"""Section 6: the spectral backward formulas against direct sums and finite differences.

The measured errors are round-off and vary in their last digits from CPU to CPU; the results file shows the
bounds, and these tests hold every measured error to them.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from site_builder.models.analysis import checks
from site_builder.results.analysis import build_analysis_results


@pytest.fixture(scope="module")
def results() -> list[checks.GradCheck]:
    return checks.gradient_checks()


def test_lengths_include_a_non_power_of_two(results: list[checks.GradCheck]) -> None:
    by_len = {c.length: c for c in results}
    assert by_len[1000].padded == 2048


def test_the_bounds_are_the_ones_the_results_print() -> None:
    assert checks.DIRECT_BOUND == 1e-14
    assert checks.FD_BOUND == 1e-9


def test_spectral_matches_direct_sums(results: list[checks.GradCheck]) -> None:
    for c in results:
        assert 0 < c.du_vs_direct < checks.DIRECT_BOUND, c
        assert 0 < c.dh_vs_direct < checks.DIRECT_BOUND, c


def test_spectral_matches_finite_differences(results: list[checks.GradCheck]) -> None:
    for c in results:
        assert 0 < c.du_vs_fd < checks.FD_BOUND, c
        assert 0 < c.dh_vs_fd < checks.FD_BOUND, c
        assert c.within_bounds()


def test_results_show_the_bounds_not_the_measured_errors(results: list[checks.GradCheck]) -> None:
    doc = build_analysis_results()
    cells = {k.key: k for k in doc.keyed_cells() if k.key.startswith("ana.checks.")}
    for c in results:
        k = f"ana.checks.{c.length}"
        assert (cells[f"{k}.direct_bound"].text, cells[f"{k}.direct_bound"].value) == ("below 1e-14", 1e-14)
        assert (cells[f"{k}.fd_bound"].text, cells[f"{k}.fd_bound"].value) == ("below 1e-09", 1e-9)
        assert cells[f"{k}.padded"].value == c.padded
    assert cells["ana.checks.direct_bound"].text == "below 1e-14"
    assert cells["ana.checks.fd_bound"].text == "below 1e-09"
    allowed = {1e-14, 1e-9, checks.FD_STEP}
    for key, cell in cells.items():
        assert not isinstance(cell.value, float) or cell.value in allowed, key
    data = json.loads(doc.to_json())["data"]["checks"]
    assert data["lengths"] == [{"length": c.length, "padded": c.padded} for c in results]
    for c in results:
        for measured in (c.du_vs_direct, c.dh_vs_direct, c.du_vs_fd, c.dh_vs_fd):
            assert repr(measured) not in doc.to_json()


def test_writing_the_results_fails_when_a_check_exceeds_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = checks.GradCheck(16, 32, 2e-14, 1e-16, 1e-12, 1e-12)
    assert not bad.within_bounds()
    monkeypatch.setattr(checks, "gradient_checks", lambda: [bad])
    with pytest.raises(ValueError, match="exceed the bounds"):
        build_analysis_results()


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
