"""Section 2: the training-step shares, their Amdahl bounds and the ledger rules behind them."""

from __future__ import annotations

import pytest

from site_builder import fmt
from site_builder.models.analysis.blocks import circulant_matrix, dense_matrix, long_convolutions
from site_builder.models.analysis.ledger import sequence_cost, step_ledger
from site_builder.models.analysis.ops import Ops, padded_length, rfft
from site_builder.models.analysis.shape import LENGTHS, VARIANTS
from site_builder.models.analysis.step import amdahl, step_shares


def test_cost_conventions() -> None:
    assert rfft(4096) == 2.5 * 4096 * 12
    assert padded_length(2048) == 4096
    assert padded_length(1000) == 2048
    assert padded_length(2049) == 8192
    with pytest.raises(ValueError):
        rfft(1000)


def test_hyena2_forward_at_2048_matches_the_inference_ledger() -> None:
    # conventions.md A9: one 2,048-token Hyena-2 prefill is 34,110,631,837,696 FLOPs, optical share 0.1983...
    fwd = sequence_cost("hyena2", 2048).fwd_seq
    assert fwd.total == 34_110_631_837_696
    assert fwd.optical / fwd.total == pytest.approx(0.0019831736948725262, rel=1e-15)


def test_block_circulant_forward_at_2048_matches_the_inference_ledger() -> None:
    fwd = sequence_cost("circ", 2048).fwd_seq
    assert fmt.pct(fwd.optical / fwd.total) == "13.99%"


def test_hyena2_published_figures() -> None:
    assert fmt.pct(step_shares("hyena2", 2048).forward) == "0.20%"
    r = step_shares("hyena2", 4096)
    assert fmt.pct(r.forward) == "0.21%"
    assert fmt.pct(r.backward) == "0.11%"
    assert fmt.pct(r.step) == "0.15%"
    assert fmt.pct(r.static) == "0.14%"
    assert fmt.ratio_x(r.bound_optical) == "1.001x"
    assert fmt.ratio_x(r.backward_over_forward) == "1.998x"


def test_block_circulant_published_figures() -> None:
    r = step_shares("circ", 4096)
    got = [fmt.pct(r.forward), fmt.pct(r.backward), fmt.pct(r.step), fmt.pct(r.static), fmt.pct(r.data_part)]
    assert got == ["14.18%", "11.16%", "12.19%", "9.66%", "20.73%"]
    assert fmt.ratio_x(r.bound_optical) == "1.139x"
    assert fmt.ratio_x(r.bound_static) == "1.107x"
    assert fmt.pct(r.static, 1) == "9.7%"  # the series hub's glossary


def test_published_ranges_across_lengths() -> None:
    circ = [step_shares("circ", n) for n in LENGTHS]
    assert (fmt.pct(min(r.static for r in circ)), fmt.pct(max(r.static for r in circ))) == ("9.53%", "10.07%")
    bounds = [r.bound_static for r in circ]
    assert (fmt.ratio_x(min(bounds)), fmt.ratio_x(max(bounds))) == ("1.105x", "1.112x")
    hy = [step_shares("hyena2", n) for n in LENGTHS]
    assert (fmt.pct(min(r.static for r in hy)), fmt.pct(max(r.static for r in hy))) == ("0.13%", "0.18%")
    assert fmt.ratio_x(max(r.bound_static for r in hy)) == "1.002x"
    assert fmt.pct(step_shares("hyena2", 8192).static) == "0.15%"


def test_forward_column_includes_the_amortised_filter_transforms() -> None:
    c = sequence_cost("circ", 4096)
    without = c.fwd_seq.scaled(256)
    with_ = without + c.fwd_step
    assert fmt.pct(without.optical / without.total) == "14.17%"
    assert fmt.pct(with_.optical / with_.total) == "14.18%"
    assert step_ledger("circ", 4096).forward == with_


def test_transformer_backward_is_twice_the_forward_and_has_no_optical_work() -> None:
    for n in LENGTHS:
        led = step_ledger("transformer", n)
        assert led.backward == led.forward.scaled(2)
        assert led.step.optical == 0


def test_matmul_backward_rule() -> None:
    c = dense_matrix(14336, 4096, 10)
    assert c.bwd_seq.dense == 2 * c.fwd_seq.dense == 4 * 14336 * 4096 * 10


def test_long_convolution_backward_split() -> None:
    c = long_convolutions(1, 2048)
    b = 4096 // 2 + 1
    assert c.fwd_seq == Ops(transform=2 * rfft(4096), spectral_w=6 * b)
    assert c.bwd_seq == Ops(transform=2 * rfft(4096), spectral_w=6 * b, spectral_d=6 * b, other=2 * b)
    assert c.fwd_step == c.bwd_step == Ops(transform=rfft(4096))


def test_circulant_backward_split() -> None:
    c = circulant_matrix(512, 256, 1, 256)  # two output blocks, one input block
    b = 129
    assert c.fwd_seq == Ops(transform=3 * rfft(256), spectral_w=2 * b * 6, other=0)
    assert c.bwd_seq == Ops(
        transform=3 * rfft(256), spectral_w=2 * b * 6, spectral_d=2 * b * 6, other=b * 2 + 2 * b * 2
    )
    assert c.fwd_step == c.bwd_step == Ops(transform=2 * rfft(256))


def test_shares_are_ordered_forward_step_backward() -> None:
    for v in VARIANTS[1:]:
        for n in LENGTHS:
            r = step_shares(v, n)
            assert r.forward > r.step > r.backward
            assert r.step > r.static
            assert r.bound_optical == amdahl(r.step)


def test_bad_inputs() -> None:
    with pytest.raises(ValueError):
        step_ledger("mamba", 2048)
    with pytest.raises(ValueError):
        step_ledger("hyena2", 3000)
    with pytest.raises(ValueError):
        amdahl(1.0)
