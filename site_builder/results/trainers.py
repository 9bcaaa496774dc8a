"""Three trainers, simulated, as a results document (``data/trainers/results.{md,json}``).

Every number comes from ``site_builder.models.trainers``; this module lays the numbers out, formats them
with ``site_builder.fmt`` and names the figure keys (prefix ``trn.``). The explorer "three trainers"
draws the curves kept in ``data`` and prints the cells of section 2.
"""

from __future__ import annotations

from typing import Any

from site_builder import fmt
from site_builder.models import trainers as m
from site_builder.results.cells import cell
from site_builder.results.doc import Cell, ResultsDoc

CURVE_STEPS: tuple[int, ...] = (0, 10, 20, 50, 100, 150, 200)  # rows of the default setting's table


def loss_text(x: float) -> str:
    """A loss as printed everywhere (tables, explorer): ``4.93e-03``."""
    return fmt.sci(x, 2)


def point_label(fab: int, noise: int) -> str:
    return f"{fab}%, {noise}%"


def final_key(fab: int, noise: int, trainer: str) -> str:
    return f"trn.final.{fab}.{noise}.{trainer}"


INTRO = """
This file is written by `make results` from `site_builder.models.trainers`, a small simulation of our
own made for the *Optical Backpropagation and In-Situ Training* deck (FOptTrn 02). It compares three
ways of training an optical model whose hardware is not quite the model its designers simulate:
training the simulation and deploying the result (in silico), reading the output from the hardware and
taking the gradient from the simulation (physics-aware), and reading everything, gradient included, from
the hardware (in situ). It is a toy with one task and fixed random draws, chosen to show the mechanisms,
not to rank methods: the published works it illustrates are Lin et al. 2018 (in-silico training of
diffractive networks), Wright et al. 2022 (physics-aware training), Hughes et al. 2018 and Pai et al. 2023
(in-situ backpropagation by the adjoint method). None of their numbers is used here.

The loss is the mean squared error of output intensities (full scale 1), as the hardware delivers it
without read-out noise. Every run is deterministic (fixed seeds) and computed with elementwise
arithmetic and sums in a fixed order, so the numbers below are the same on every machine.
"""


def _section_model(doc: ResultsDoc) -> None:
    s = doc.section("1. The model")
    s.text(
        f"""
The optical model is a {m.N_MODES}-mode interferometer mesh: {len(m.MZIS)} Mach-Zehnder interferometers in
the rectangular arrangement, each made of a phase shifter on its upper arm, a 50:50 coupler, a second phase
shifter and a second coupler, so {m.N_PARAMS} phases θ in all. {m.N_INPUTS} fixed complex input states of unit
power (random draws) go through it, and the {m.N_MODES} output intensities of each are read. The task: make
the mesh give the intensities a "teacher" setting of the phases gives on the ideal mesh. All three trainers
start from the same phases (the teacher's, each moved by a normal draw), take the same number of plain
gradient steps of the same size, and compute the gradient of the loss the same way, Σ 2(y − t)/M · ∂y/∂θ
over the M = {m.N_TERMS} intensities y with targets t; they differ in where y and ∂y/∂θ come from.
"""
    )
    s.text(
        f"""
* **The digital twin** is the ideal mesh. **The hardware** is the same mesh with a fabrication error: each
  coupler's splitting angle is off by the error times a fixed normal draw (relative to π/4), and each phase
  shifter has an offset of the error times π times another fixed draw. Each intensity the hardware reports
  carries Gaussian read-out noise whose standard deviation is the noise setting (of full scale).
* **In silico**: y and ∂y/∂θ both from the twin. The hardware is never read during training; its loss is
  what the trained phases give when they are deployed.
* **Physics-aware**: y is read from the hardware (noisy), ∂y/∂θ is the twin's at the same phases: the
  forward pass is physical, the backward pass digital.
* **In situ**: y and ∂y/∂θ are both read from the hardware. Each ∂y/∂θk comes from the phase-shift rule: the
  intensities read with θk moved by +π/2 and by −π/2, their difference halved, which is exact for a phase
  shifter because its intensities vary as a sinusoid of its phase. That is 1 + 2 × {m.N_PARAMS} = {1 + 2 * m.N_PARAMS}
  hardware reads of every intensity per step, each with its own noise. (The adjoint method reads every
  phase's gradient at once from interference intensities measured at the phase shifters; it reads
  intensities too, so read-out noise enters its gradient as well. We use the phase-shift rule because it
  needs nothing but the output read-out.)
* With no fabrication error and no read-out noise the three trainers are the same computation, to the bit.
"""
    )
    t = s.table("Setting", "Value")
    t.add("Modes", cell(m.N_MODES, fmt.integer(m.N_MODES), "trn.setting.modes"))
    t.add("Interferometers", cell(len(m.MZIS), fmt.integer(len(m.MZIS)), "trn.setting.mzis"))
    t.add("Trained phases", cell(m.N_PARAMS, fmt.integer(m.N_PARAMS), "trn.setting.phases"))
    t.add("Input states", cell(m.N_INPUTS, fmt.integer(m.N_INPUTS), "trn.setting.inputs"))
    t.add("Gradient steps", cell(m.STEPS, fmt.integer(m.STEPS), "trn.setting.steps"))
    t.add("Step size", cell(m.LEARNING_RATE, fmt.fixed(m.LEARNING_RATE, 1), "trn.setting.step_size"))
    t.add(
        "Initial phases: teacher's plus a normal draw of standard deviation",
        cell(m.INIT_SPREAD, fmt.unit(m.INIT_SPREAD, 1, "rad"), "trn.setting.init_spread"),
    )
    t.add("Loss recorded every", cell(m.RECORD_EVERY, f"{m.RECORD_EVERY} steps", "trn.setting.record_every"))
    first = m.STEPS - (m.TAIL - 1) * m.RECORD_EVERY
    steps_text = f"{first}–{m.STEPS}"
    t.add("Final loss: mean of the records at steps", Cell(steps_text, steps_text, "trn.setting.final_steps"))
    fab_text = ", ".join(f"{f}%" for f in m.FAB_LEVELS)
    noise_text = ", ".join(f"{n}%" for n in m.NOISE_LEVELS)
    default_text = point_label(*m.DEFAULT)
    levels = s.table("Grid", "Values")
    levels.add("Fabrication error", Cell(fab_text, fab_text, "trn.setting.fab_levels"))
    levels.add("Read-out noise (of full scale)", Cell(noise_text, noise_text, "trn.setting.noise_levels"))
    levels.add("Shown first", Cell(default_text, default_text, "trn.setting.default"))
    each = s.table("Grid level", "Fabrication error", "Read-out noise")
    for i, (fab, noise) in enumerate(zip(m.FAB_LEVELS, m.NOISE_LEVELS, strict=True), start=1):
        each.add(
            f"Level {i}",
            cell(fab, f"{fab}%", f"trn.grid.fab.{fab}"),
            cell(noise, f"{noise}%", f"trn.grid.noise.{noise}"),
        )
    s.text(
        f"""
The initial phases are close to the teacher's ({fmt.fixed(m.INIT_SPREAD, 1)} rad) on purpose: from phases drawn
uniformly, plain gradient descent on this mesh spends most of its steps on plateaus and in local minima,
and which trainer ends lowest then depends on the draw more than on the method. Near the teacher every
trainer has the same reachable task and the differences come from what each one reads.
"""
    )


def _section_grid(doc: ResultsDoc, run: m.GridRun) -> dict[str, dict[str, float]]:
    s = doc.section("2. Final loss on the hardware")
    s.text(
        f"""
The loss each trainer ends at on the hardware (the mean of its records at steps
{m.STEPS - (m.TAIL - 1) * m.RECORD_EVERY}–{m.STEPS}), for every fabrication error and read-out noise of the grid.
The explorer prints these cells.
"""
    )
    t = s.table("Fabrication error, read-out noise", *(m.TRAINER_NAMES[k] for k in m.TRAINERS))
    finals: dict[str, dict[str, float]] = {}
    for (fab, noise), curves in run.loss.items():
        row = {k: m.final_loss(curves[k]) for k in m.TRAINERS}
        finals[point_label(fab, noise)] = row
        label = point_label(fab, noise)
        t.add(
            Cell(label, label, f"trn.grid.{fab}.{noise}"),
            *(cell(row[k], loss_text(row[k]), final_key(fab, noise, k)) for k in m.TRAINERS),
        )
    twin = m.final_loss(run.twin_loss)
    tw = s.table("Reference", "Final loss")
    tw.add("In silico, on its own twin", cell(twin, loss_text(twin), "trn.final.twin"))
    return finals


def _section_default(doc: ResultsDoc, run: m.GridRun) -> None:
    fab, noise = m.DEFAULT
    s = doc.section("3. The first setting over training")
    s.text(
        f"""
The loss on the hardware at {fab}% fabrication error and {noise}% read-out noise (the explorer's first
setting) as training goes, with the in-silico trainer's loss on its own twin beside it. The full curves of
every setting, recorded every {m.RECORD_EVERY} steps, are in results.json (`data.points`).
"""
    )
    curves = run.loss[m.DEFAULT]
    t = s.table("Step", "In silico, on its twin", *(m.TRAINER_NAMES[k] for k in m.TRAINERS))
    for step in CURVE_STEPS:
        i = run.steps.index(step)
        t.add(
            fmt.integer(step),
            cell(run.twin_loss[i], loss_text(run.twin_loss[i]), f"trn.curve.{step}.twin"),
            *(cell(curves[k][i], loss_text(curves[k][i]), f"trn.curve.{step}.{k}") for k in m.TRAINERS),
        )


def _section_reading(doc: ResultsDoc, finals: dict[str, dict[str, float]], twin: float) -> None:
    s = doc.section("4. What the grid shows")
    fabs, noises = m.FAB_LEVELS, m.NOISE_LEVELS
    quiet, loud = noises[0], noises[-1]
    worst = fabs[-1]

    def f(fab: int, noise: int, k: str) -> str:
        return loss_text(finals[point_label(fab, noise)][k])

    gap = ", ".join(f"{f(x, quiet, 'insilico')} at {x}%" for x in fabs[1:])
    s.text(
        f"""
* **The reality gap.** The in-silico trainer never reads the hardware, so its loss there does not depend on the
  read-out noise; it grows with the fabrication error: {gap}, against {loss_text(twin)} on its own twin.
* **Closing it.** The two trainers that read the hardware remove most of the gap. At {worst}% fabrication error
  with clean reads, physics-aware ends at {f(worst, quiet, "physics")} and in situ at {f(worst, quiet, "insitu")}. In
  situ follows the hardware's own gradient; the physics-aware gradient is the twin's, wrong by as much as the
  twin is, which is why it ends a little higher when the mismatch is largest.
* **Noise.** Read-out noise raises the loss of both: at {worst}% fabrication error, physics-aware ends at
  {", ".join(f(worst, n, "physics") for n in noises)} and in situ at {", ".join(f(worst, n, "insitu") for n in noises)}
  for read-out noise {", ".join(f"{n}%" for n in noises)}. At {loud}% noise the floor the noise sets is about the
  same whatever the fabrication error ({", ".join(f(x, loud, "insitu") for x in fabs)} for in situ), and with no
  fabrication error the in-silico trainer, which reads nothing, is then the best of the three.
* **What it leaves out.** One small mesh, one task, one draw of the fabrication error and of the noise, plain
  gradient descent with one step size. Real meshes also drift, lose light and cross-talk, and the adjoint
  method's reads are not the phase-shift rule's; the mechanisms are the ones above, the sizes are not a
  prediction.
"""
    )


def build_trainers_results() -> ResultsDoc:
    """Sections 1 to 4, and in ``data`` every curve of the grid (what the explorer draws)."""
    run = m.train_grid()
    doc = ResultsDoc(name="trainers", title="Results: three trainers, simulated", intro=INTRO)
    _section_model(doc)
    finals = _section_grid(doc, run)
    _section_default(doc, run)
    twin = m.final_loss(run.twin_loss)
    _section_reading(doc, finals, twin)
    doc.data = _data(run)
    return doc


def _data(run: m.GridRun) -> dict[str, Any]:
    return {
        "fab_levels": list(m.FAB_LEVELS),
        "noise_levels": list(m.NOISE_LEVELS),
        "default": {"fab": m.DEFAULT[0], "noise": m.DEFAULT[1]},
        "trainers": [{"id": k, "name": m.TRAINER_NAMES[k]} for k in m.TRAINERS],
        "steps": list(run.steps),
        "tail": m.TAIL,
        "twin": list(run.twin_loss),
        "points": [
            {"fab": fab, "noise": noise, "loss": {k: list(curves[k]) for k in m.TRAINERS}}
            for (fab, noise), curves in run.loss.items()
        ],
        "model": {
            "modes": m.N_MODES,
            "mzis": [list(p) for p in m.MZIS],
            "inputs": m.N_INPUTS,
            "steps": m.STEPS,
            "step_size": m.LEARNING_RATE,
            "init_spread": m.INIT_SPREAD,
            "seeds": {"task": m.SEED_TASK, "fabrication": m.SEED_FAB, "noise": m.SEED_NOISE},
        },
    }
