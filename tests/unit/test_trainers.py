"""The three-trainers model (site_builder/models/trainers.py) and its results document."""

from __future__ import annotations

import json
import math
from functools import cache

import numpy as np
import pytest

from site_builder import fmt
from site_builder.models import trainers as m
from site_builder.results.doc import ResultsDoc
from site_builder.results.trainers import build_trainers_results, final_key, point_label
from tests.conftest import PROJECT


@cache
def run() -> m.GridRun:
    return m.train_grid()


def final(fab: int, noise: int, trainer: str) -> float:
    return m.final_loss(run().loss[(fab, noise)][trainer])


# ------------------------------------------------------------------------------------------------ arithmetic
def test_cis_is_cos_and_sin_to_rounding() -> None:
    x = np.linspace(-40.0, 40.0, 20001)
    c, s = m.cis(x)
    assert np.max(np.abs(c - np.cos(x))) < 4e-15
    assert np.max(np.abs(s - np.sin(x))) < 4e-15


def test_fabrication_error_zero_is_the_twin_exactly() -> None:
    hw = m.hardware([0.0, 0.0])
    c, s = m.cis(np.asarray(math.pi / 4))
    assert np.all(hw.coupler_c == c) and np.all(hw.coupler_s == s)
    assert np.all(hw.offsets == 0.0)


def test_the_phase_shift_rule_is_the_derivative() -> None:
    """The in-situ trainer's gradient reads: (y(θk + π/2) − y(θk − π/2)) / 2 equals ∂y/∂θk."""
    task = m.make_task()
    hw = m.hardware([0.05])
    inputs = (task.inputs_re, task.inputs_im)
    theta = task.theta0[:, None]
    jac = m._shift_jacobian(m.intensities(theta, hw, inputs, True))
    h = 1e-6
    for k in range(m.N_PARAMS):
        up, down = theta.copy(), theta.copy()
        up[k] += h
        down[k] -= h
        y_up = m.intensities(up, hw, inputs, False)
        y_down = m.intensities(down, hw, inputs, False)
        for j in range(m.N_MODES):
            fd = (y_up[j, 0, :, 0] - y_down[j, 0, :, 0]) / (2 * h)
            assert np.allclose(jac[j, k, :, 0], fd, atol=1e-8), (k, j)


def reference_intensities(
    theta: np.ndarray, hw: m.Hardware, inputs: tuple[np.ndarray, np.ndarray], shifts: bool
) -> np.ndarray:
    """The textbook evaluation ``intensities`` must equal bit for bit: one mode's (re, im) at a time, one MZI
    after another, each shifted setting branching off with a copy of the fields at its phase shifter and
    taking the shifted phase as (cos, sin) exchanged. Laid out as ``intensities``: (N_MODES, C, K, G)."""
    in_re, in_im = inputs
    g = theta.shape[1]
    c0, s0 = m.cis(theta + hw.offsets)
    pc, ps = np.tile(c0, (1, m.N_INPUTS)), np.tile(s0, (1, m.N_INPUTS))  # (N_PARAMS, K·G), column k·G + g
    cc, cs = np.tile(hw.coupler_c, (1, m.N_INPUTS)), np.tile(hw.coupler_s, (1, m.N_INPUTS))
    re = [np.repeat(in_re[j], g)[None, :] for j in range(m.N_MODES)]  # (settings, K·G)
    im = [np.repeat(in_im[j], g)[None, :] for j in range(m.N_MODES)]
    for mzi, (a, b) in enumerate(m.MZIS):
        for half in range(2):
            p = 2 * mzi + half
            c, s = pc[p], ps[p]
            if shifts:
                n = re[0].shape[0]
                re = [np.concatenate([r, r[:1], r[:1]]) for r in re]
                im = [np.concatenate([i, i[:1], i[:1]]) for i in im]
                c = np.concatenate([np.broadcast_to(c, (n, c.size)), -s[None], s[None]])
                s = np.concatenate([np.broadcast_to(s, (n, s.size)), pc[p][None], -pc[p][None]])
            ar, ai, br, bi = re[a], im[a], re[b], im[b]
            ar, ai = ar * c - ai * s, ar * s + ai * c
            c, s = cc[p], cs[p]
            re[a], im[a], re[b], im[b] = c * ar - s * bi, c * ai + s * br, c * br - s * ai, c * bi + s * ar
    return np.stack([(re[j] * re[j] + im[j] * im[j]).reshape(-1, m.N_INPUTS, g) for j in range(m.N_MODES)])


@pytest.mark.parametrize("shifts", [False, True])
def test_intensities_are_the_textbook_evaluation_bit_for_bit(shifts: bool) -> None:
    """The evaluation in preallocated blocks, each shifted setting branching off as ±i times the mode as set,
    gives exactly the doubles of the textbook one, on the twin and on faulty hardware."""
    task = m.make_task()
    inputs = (task.inputs_re, task.inputs_im)
    rng = np.random.default_rng(1)
    for g in (1, 3, 7):
        hw = m.hardware([0.0, *rng.uniform(0.0, 0.2, g - 1)])
        theta = rng.uniform(-10.0, 10.0, (m.N_PARAMS, g))
        got, want = m.intensities(theta, hw, inputs, shifts), reference_intensities(theta, hw, inputs, shifts)
        assert got.shape == want.shape == (m.N_MODES, 1 + 2 * m.N_PARAMS if shifts else 1, m.N_INPUTS, g)
        assert np.array_equal(got.view(np.int64), want.view(np.int64)), g


def test_intensities_keep_the_power() -> None:
    """A lossless mesh: every input's four output intensities sum to its unit power, on twin and hardware."""
    task = m.make_task()
    theta = np.repeat(task.theta0[:, None], 2, axis=1)
    y = m.intensities(theta, m.hardware([0.0, 0.1]), (task.inputs_re, task.inputs_im), True)
    total = y[0] + y[1] + y[2] + y[3]
    assert np.allclose(total, 1.0, atol=1e-13)


def test_final_loss_is_the_mean_of_the_last_records() -> None:
    assert m.final_loss([9.0, 1.0, 2.0, 3.0], 3) == 2.0
    assert m.STEPS - (m.TAIL - 1) * m.RECORD_EVERY == 150


# ------------------------------------------------------------------------------------------------ the trainers
def test_with_no_error_and_no_noise_the_three_trainers_are_one() -> None:
    r = run()
    curves = r.loss[(0, 0)]
    assert curves["insilico"] == curves["physics"] == curves["insitu"] == r.twin_loss


def test_in_silico_never_reads_the_hardware() -> None:
    """Its hardware loss depends on the fabrication error only, and at zero error it is its twin loss."""
    r = run()
    for fab in m.FAB_LEVELS:
        curves = {r.loss[(fab, n)]["insilico"] for n in m.NOISE_LEVELS}
        assert len(curves) == 1
    assert r.loss[(0, m.NOISE_LEVELS[-1])]["insilico"] == r.twin_loss


def test_with_fabrication_error_in_silico_is_worst_on_the_hardware() -> None:
    for fab in m.FAB_LEVELS[1:]:
        for noise in m.NOISE_LEVELS:
            silico = final(fab, noise, "insilico")
            assert silico > final(fab, noise, "physics")
            assert silico > final(fab, noise, "insitu")
    gaps = [final(fab, 0, "insilico") for fab in m.FAB_LEVELS]
    assert gaps == sorted(gaps) and gaps[0] < gaps[-1] / 100  # the reality gap grows with the error


def test_physics_aware_and_in_situ_close_most_of_the_gap() -> None:
    for fab in m.FAB_LEVELS[1:]:
        for trainer in ("physics", "insitu"):
            curve = run().loss[(fab, 0)][trainer]
            assert final(fab, 0, trainer) < curve[0] / 100  # they train
            assert final(fab, 0, trainer) < final(fab, 0, "insilico") / 10  # and beat the deployed twin


def test_read_out_noise_raises_the_loss_of_the_hardware_trainers() -> None:
    for fab in m.FAB_LEVELS:
        for trainer in ("insitu", "physics"):
            losses = [final(fab, n, trainer) for n in m.NOISE_LEVELS]
            assert losses == sorted(losses) and len(set(losses)) == len(losses), (fab, trainer, losses)


def test_the_findings_of_section_4_hold() -> None:
    worst, loud = m.FAB_LEVELS[-1], m.NOISE_LEVELS[-1]
    assert final(worst, 0, "physics") > final(worst, 0, "insitu")  # the twin's gradient is off at large error
    for noise in m.NOISE_LEVELS[1:]:  # with no error, any noise makes the trainer that reads nothing the best
        assert final(0, noise, "insilico") < min(final(0, noise, "physics"), final(0, noise, "insitu"))
    floor = [final(fab, loud, "insitu") for fab in m.FAB_LEVELS]
    assert max(floor) < 1.5 * min(floor)  # loud reads set about the same floor whatever the error


def test_deterministic() -> None:
    a = m.train_grid((0, 5), (0, 3), steps=20)
    b = m.train_grid((0, 5), (0, 3), steps=20)
    assert a == b
    assert a.loss[(5, 3)]["insilico"] == run().loss[(5, 3)]["insilico"][: len(a.steps)]


# ------------------------------------------------------------------------------------------------ the document
@cache
def doc() -> ResultsDoc:
    return build_trainers_results()


@cache
def doc_json() -> dict:
    return json.loads(doc().to_json())


def test_every_final_is_a_figure_printed_as_sci() -> None:
    figures = doc_json()["figures"]
    for fab in m.FAB_LEVELS:
        for noise in m.NOISE_LEVELS:
            for k in m.TRAINERS:
                f = figures[final_key(fab, noise, k)]
                assert f["value"] == final(fab, noise, k)
                assert f["text"] == fmt.sci(f["value"], 2)
                assert f["row"] == point_label(fab, noise) and f["section"] == "2. Final loss on the hardware"
    assert figures["trn.final.twin"]["value"] == m.final_loss(run().twin_loss)


def test_grid_settings_are_figures() -> None:
    figures = doc_json()["figures"]
    for fab in m.FAB_LEVELS:
        assert figures[f"trn.grid.fab.{fab}"]["text"] == f"{fab}%"
        for noise in m.NOISE_LEVELS:
            f = figures[f"trn.grid.{fab}.{noise}"]
            assert f["text"] == f["row"] == point_label(fab, noise)
    for noise in m.NOISE_LEVELS:
        assert figures[f"trn.grid.noise.{noise}"]["text"] == f"{noise}%"
    assert figures["trn.grid.5.1"]["text"] == figures["trn.setting.default"]["text"] == "5%, 1%"
    assert figures["trn.grid.10.0"]["text"] == "10%, 0%" and figures["trn.grid.0.10"]["text"] == "0%, 10%"


def test_data_holds_every_curve() -> None:
    d = doc_json()["data"]
    assert d["steps"] == list(range(0, m.STEPS + 1, m.RECORD_EVERY))
    assert len(d["points"]) == len(m.FAB_LEVELS) * len(m.NOISE_LEVELS)
    for p in d["points"]:
        assert p["loss"] == {k: list(v) for k, v in run().loss[(p["fab"], p["noise"])].items()}
    assert d["default"] == {"fab": m.DEFAULT[0], "noise": m.DEFAULT[1]}


@pytest.mark.parametrize("ext", ["md", "json"])
def test_committed_files_are_what_the_model_writes(ext: str) -> None:
    text = doc().to_markdown() if ext == "md" else doc().to_json()
    assert (PROJECT / "data" / "trainers" / f"results.{ext}").read_text(encoding="utf-8") == text
