"""Section 4: mask frames per optimizer step against the digital step."""

from __future__ import annotations

import pytest

from site_builder import fmt
from site_builder.models.analysis.masks import data_mask_values, mask_budget, weight_mask_values


def secs(x: float, digits: int = 2) -> str:
    return fmt.unit(x, digits, "s")


def test_mask_values_match_the_inference_ledger() -> None:
    # conventions.md A11: Hyena-2 537,133,056 values (269 frames) at 2,048; circulant 552,456,192 (277).
    assert weight_mask_values("hyena2", 2048) == 537_133_056
    assert weight_mask_values("hyena2", 32768) == 8_590_196_736
    assert weight_mask_values("circ", 2048) == 552_456_192
    assert weight_mask_values("hybrid", 2048) == 402_849_792
    assert weight_mask_values("transformer", 2048) == 0
    assert mask_budget("hyena2", 2048).forward_frames == 269


def test_hyena2_published_figures() -> None:
    m2, m8 = mask_budget("hyena2", 2048), mask_budget("hyena2", 8192)
    assert secs(m2.weight_seconds) == "0.52 s"
    assert secs(m8.weight_seconds) == "2.08 s"
    assert secs(m2.digital_seconds) == "2.05 s"
    assert secs(mask_budget("hyena2", 4096).data_seconds, 0) == "133 s"
    assert secs(m2.data_seconds, 0) == "133 s"


def test_block_circulant_published_figures() -> None:
    ms = [mask_budget("circ", n) for n in (2048, 4096, 8192)]
    assert {secs(m.digital_seconds) for m in ms} == {"0.15 s"}
    assert (secs(ms[0].weight_seconds), secs(ms[-1].weight_seconds)) == ("0.54 s", "2.10 s")
    assert secs(ms[1].data_seconds, 0) == "385 s"


def test_forward_and_backward_each_write_every_spectrum() -> None:
    m = mask_budget("circ", 4096)
    assert m.forward_frames == m.backward_frames == -(-weight_mask_values("circ", 4096) // 2_000_000)
    assert m.weight_seconds == (m.forward_frames + m.backward_frames) / 1031.0


def test_weight_frames_do_not_depend_on_the_step_size() -> None:
    small, big = mask_budget("hyena2", 2048, step_tokens=262_144), mask_budget("hyena2", 2048)
    assert small.forward_frames == big.forward_frames
    assert small.digital_seconds < big.digital_seconds
    assert data_mask_values("hyena2", 2048, 262_144) * 4 == data_mask_values("hyena2", 2048)


def test_schedules() -> None:
    base = mask_budget("hyena2", 2048).weight_seconds
    rel = {
        mb: mask_budget("hyena2", 2048, schedule="sequence-major", microbatch=mb).weight_seconds / base
        for mb in (8, 4, 1)
    }
    assert rel == {8: 1.0, 4: 2.0, 1: 8.0}  # deck 03: m = 4 doubles the mask time, m = 1 multiplies it by eight
    mp = mask_budget("hyena2", 2048, model_parallel=32)
    assert mp.frames_per_pass > 1  # one stage of 32 still overflows a 2-megapixel mask
    assert mp.replicas == 2


def test_engine_step_times() -> None:
    m = mask_budget("hyena2", 8192)
    assert m.removable_seconds == pytest.approx(m.static_share * m.digital_seconds)
    assert m.step_serial_seconds == pytest.approx(m.digital_seconds - m.removable_seconds + m.weight_seconds)
    assert m.step_overlapped_seconds == max(m.digital_seconds - m.removable_seconds, m.weight_seconds)
    assert m.data_seconds_per_engine == m.data_seconds / 64


def test_bad_inputs() -> None:
    with pytest.raises(ValueError):
        mask_budget("hyena2", 2048, schedule="random")
    with pytest.raises(ValueError):
        mask_budget("hyena2", 2048, model_parallel=3)
    with pytest.raises(ValueError):
        mask_budget("hyena2", 2048, pixels=0)
