"""The experiment model reproduces the experiment's own results and the steps ladder."""

from __future__ import annotations

import pytest

from site_builder import fmt
from site_builder.models import experiment as m
from site_builder.results.experiment import build_experiment_results, groups_by_id, ladder_targets


def test_final_losses_equal_results_json_to_the_bit(experiment):
    for row in experiment.rows:
        f = m.final_loss(experiment.runs_of(row.group))
        assert f.mean == row.final_val, row.group
        assert f.sd == row.final_val_sd, row.group


@pytest.mark.parametrize(
    ("cid", "text"),
    [
        ("A", "1.646 ± 0.005"),
        ("B", "1.785 ± 0.007"),
        ("C-1d256", "3.124 ± 0.008"),
        ("C-2d64", "3.158 ± 0.009"),
        ("D", "3.087 ± 0.027"),
        ("E-enob8-p8", "3.017 ± 0.000"),
    ],
)
def test_final_loss_printed_as_results_md_prints_it(experiment, cid, text):
    row = groups_by_id(experiment)[cid]
    f = m.final_loss(experiment.runs_of(row.group))
    assert fmt.mean_sd(f.mean, f.sd) == text


def test_bytes_reproduce_every_row_of_results_json(experiment):
    for row in experiment.rows:
        run = experiment.runs_of(row.group)[0]
        c = run.config
        shapes = m.gpt_tensor_shapes(c["n_layer"], c["n_embd"], run.vocab, c["block"])
        b = m.step_bytes(c["variant"], shapes, c["chunk_mode"], c["chunk"], c["keep"], c["workers"])
        assert (b.payload, b.payload_int64, b.wire) == (
            row.payload_per_step,
            row.payload_int64_per_step,
            row.wire_per_step,
        ), row.group


def test_collective_formulas():
    assert m.ring_allreduce_wire(31_666_944, 8) == 55_417_152
    assert m.ring_allgather_wire(1_979_184, 8) == 13_854_288
    assert m.ring_allgather_wire(3_957_960, 8) == 27_705_720


def test_topk_int64_payload(experiment):
    row = groups_by_id(experiment)["B"]
    assert fmt.integer(row.payload_int64_per_step) == "9,895,920"


def test_index_bytes_and_chunking():
    assert m.index_bytes(4096) == 2 and m.index_bytes(256) == 1 and m.index_bytes(64) == 1 and m.index_bytes(1) == 1
    assert m.chunks_of((1152, 384), "2d", 64) == (108, 4096)
    assert m.chunks_of((384,), "2d", 64) == (6, 64)  # 1-D tensors fall back to runs
    assert m.chunks_of((384,), "1d", 256) == (2, 192)  # DeMo's divisor rule
    assert m.chunks_of((384,), "1d", 256, pow2=True) == (3, 128)  # the optics' power-of-two rule
    assert m.keep_count(4096, 1 / 16) == 256 and m.keep_count(10, 1 / 16) == 1


def steps(experiment, cid: str, target: float) -> m.Steps:
    return m.steps_to(experiment.runs_of(groups_by_id(experiment)[cid].group), target)


def test_steps_ladder_published_values(experiment):
    assert steps(experiment, "A", 3.158).mean == 400
    assert steps(experiment, "B", 3.158).mean == 400
    exact = steps(experiment, "C-1d256", 3.158)
    assert exact.per_seed == (2600, 2800, 2600)
    assert fmt.grouped(exact.mean) == "2,667"
    assert steps(experiment, "E-enob8-p8", 3.158).mean == 1800
    assert steps(experiment, "A", 1.785).mean == 2000


def test_not_reached_counts_seeds(experiment):
    s = steps(experiment, "A", 1.646)
    assert s.mean is None and (s.reached, len(s.per_seed)) == (1, 3)
    assert steps(experiment, "E-enob6-p8", 3.158).mean is None


def test_ladder_includes_the_required_targets(experiment):
    targets = {fmt.fixed(t, 3) for _, t in ladder_targets(experiment)}
    assert {"3.158", "2.700", "1.785", "1.646"} <= targets


def test_steps_cells_in_the_derived_results(experiment):
    doc = build_experiment_results(experiment)
    cells = {c.key: c.text for c in doc.keyed_cells()}
    assert cells["exp.steps.A.3.158"] == "400"
    assert cells["exp.steps.C-1d256.3.158"] == "2,667"
    assert cells["exp.steps.E-enob8-p8.3.158"] == "1,800"
    assert cells["exp.steps.A.1.785"] == "2,000"
    assert cells["exp.steps.A.1.646"] == "not reached (1/3)"
    assert cells["exp.bytes.band.wire"] == "13,854,288"
    assert cells["exp.bytes.A.wire"] == "55,417,152"
    assert cells["exp.bytes.band.wire_vs_A"] == "4.0x"


def test_mean_curve_spans_seeds(experiment):
    c = m.mean_curve(experiment.runs_of(groups_by_id(experiment)["A"].group))
    assert c.steps[0] == 200 and c.steps[-1] == 3000
    assert all(lo <= mu <= hi for lo, mu, hi in zip(c.low, c.mean, c.high, strict=True))


def test_exact_band_is_the_mean_of_the_six_low_band_runs(experiment):
    """Seed 003 quotes the exact band at 3.141: the six three-seed low-band runs (1-D 256 and 2-D 64x64)."""
    doc = build_experiment_results(experiment)
    cells = {k.key: k for k in doc.keyed_cells()}
    assert cells["exp.exact_band.final_mean"].text == "3.141"
    assert cells["exp.exact_band.runs"].text == "6"
    assert abs(cells["exp.exact_band.final_mean"].value - 3.14106) < 1e-5


def _cells(experiment) -> dict[str, str]:
    return {c.key: c.text for c in build_experiment_results(experiment).keyed_cells()}


def test_settings_read_from_the_configuration_lines(experiment):
    cells = _cells(experiment)
    assert cells["exp.setting.decay"] == "0.999"
    assert cells["exp.setting.fs_every"] == "100"
    assert cells["exp.setting.kappa"] == "4"
    assert (cells["exp.setting.calib_start"], cells["exp.setting.calib_end"]) == ("200", "299")
    assert (cells["exp.setting.lr_adamw"], cells["exp.setting.lr_demo"]) == ("0.003", "0.001")
    assert cells["exp.setting.configs"] == "22"
    assert cells["exp.setting.runs"] == "32"


def test_int64_payload_is_two_and_a_half_times_the_compact_one(experiment):
    cells = _cells(experiment)
    assert cells["exp.bytes.B.int64_vs_compact"] == "2.5x"
    assert cells["exp.bytes.band.int64_vs_compact"] == "1.0x"


def test_gaps_to_topk_are_differences_of_the_printed_losses(experiment):
    cells = _cells(experiment)
    assert cells["exp.gap.fixed_band_best.d3"] == "0.915"  # 2.700 - 1.785 (unrounded: 0.9156)
    assert cells["exp.gap.optics_repaired_best.d2"] == "1.09"  # 2.878 - 1.785
    assert cells["exp.gap.low_band_best.d3"] == "1.339"


def test_chunk_and_optics_labels(experiment):
    cells = _cells(experiment)
    assert cells["exp.chunking.1d256.label"] == "1-D 256"
    assert cells["exp.chunking.1d64.label"] == "1-D 64"
    assert cells["exp.chunking.2d64.label"] == "2-D 64×64"
    assert cells["exp.chunking.2d64.values"] == "4,096"
    assert cells["exp.optics.Ex-enob6-p8.enob_planes"] == "6, 8"
    assert cells["exp.optics.E-enob8-p4.enob_planes"] == "8, 4"
    assert cells["exp.optics.E-enob8-p8.enob_label"] == "ENOB 8"
    assert cells["exp.optics.E-enob8-p12.planes_label"] == "12 planes"
    assert cells["exp.sweep.repaired.enob.list"] == "6, 8, 10 and 12"
    assert cells["exp.sweep.repaired.planes.range"] == "4–12"


def test_lowest_enob_that_reaches_the_first_rung(experiment):
    cells = _cells(experiment)
    assert cells["exp.optics.lowest_enob_to_target"] == "8"
    assert cells["exp.optics.lowest_enob_to_target_label"] == "ENOB 8"
    assert cells["exp.optics.enob_short_of_target"] == "6"


def test_scientific_shares():
    from site_builder.results.experiment import sci_text

    assert sci_text(8.46842147590413e-05) == "8.5e-5"
    assert sci_text(0.0) == "0"
    assert sci_text(0.146) == "1.5e-1"


def test_published_figures_differ_only_where_the_text_says(experiment):
    doc = build_experiment_results(experiment)
    differ = {k for k, v in doc.data["published"].items() if not v["reproduced"]}
    assert differ == {"exp.setting.runs"}  # the band share at step 3,000 is read from the investigation note
    assert doc.data["published"]["exp.investigation.band_share.3000"]["reproduced"]


def test_the_investigation_notes_band_share_is_read_by_step() -> None:
    from site_builder.sources.experiment import INVESTIGATION, load_band_share
    from tests.conftest import VENDOR

    got = dict(load_band_share(INVESTIGATION, (VENDOR / INVESTIGATION).read_text("utf-8")))
    assert got[3000] == "1.6–1.8e-5" and got[200] == "1.4–2.3e-3"


def test_a_band_share_cell_that_is_not_a_range_is_one_line() -> None:
    import pytest

    from site_builder.errors import InputError
    from site_builder.sources.experiment import load_band_share

    text = "## 2. x\n\n| Step | 200 |\n|---|---|\n| Band share of delta energy | lots |\n"
    with pytest.raises(InputError, match=r"notes\.md: 2\. x › Band share of delta energy › 200: expected a range"):
        load_band_share("notes.md", text)
