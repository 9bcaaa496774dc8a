"""Section 1: the transformer ledger against 6N plus the attention term."""

from __future__ import annotations

import pytest

from site_builder import fmt
from site_builder.models.analysis.shape import LENGTHS, LLAMA3_8B, matmul_params, params_untied
from site_builder.models.analysis.sixn import RATIO_TOLERANCE, dense_flops_per_parameter, six_n_check


def test_parameter_counts() -> None:
    assert params_untied(LLAMA3_8B) == 8_029_995_008
    assert matmul_params(LLAMA3_8B) == 8_029_995_008 - 128_256 * 4_096 == 7_504_658_432


@pytest.mark.parametrize("length", LENGTHS)
def test_ratio_is_one_to_1e12(length: int) -> None:
    c = six_n_check(length)
    assert abs(c.ratio - 1.0) < RATIO_TOLERANCE == 1e-12
    assert c.ledger_per_token == c.rule  # exact: the step ledger is integer arithmetic


@pytest.mark.parametrize(("length", "published"), [(2048, "46.64"), (32768, "70.80")])
def test_published_gflop_per_token(length: int, published: str) -> None:
    c = six_n_check(length)
    assert fmt.fixed(c.ledger_per_token / 1e9, 2) == published
    assert fmt.fixed(c.ratio, 4) == "1.0000"


def test_other_step_sizes_give_the_same_per_token_cost() -> None:
    assert six_n_check(4096, step_tokens=4096).ledger_per_token == six_n_check(4096).ledger_per_token


def test_dense_flops_per_parameter_are_the_rules_two_four_six() -> None:
    pp = dense_flops_per_parameter()
    assert (pp.forward, pp.backward, pp.step) == (2, 4, 6)
