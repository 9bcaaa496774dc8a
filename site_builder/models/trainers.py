"""Three ways to train a small optical model whose hardware differs from its digital twin.

The model is a four-mode interferometer mesh: six Mach-Zehnder interferometers (MZIs) in the
rectangular arrangement, each an external phase shifter on its top arm, a 50:50 coupler, an internal
phase shifter on the top arm and a second coupler: twelve phases θ in all. Light goes in as one of
six fixed complex input states (unit power); the outputs are the four measured intensities. The task
is to make the mesh reproduce the intensities a "teacher" setting of the phases gives on the ideal
mesh, and the loss is the mean squared error over the 6 × 4 intensities.

* The **digital twin** is the ideal mesh: every coupler exactly 50:50, every phase as set.
* The **hardware** is the same mesh with a fixed fabrication error scaled by ``fab`` (a fraction):
  every coupler's splitting angle is π/4·(1 + fab·a) and every phase shifter adds an offset fab·π·b,
  with a and b fixed standard normal draws. Each intensity it *reports* carries additive Gaussian
  read-out noise of standard deviation ``noise`` (a fraction of the full-scale intensity, 1).

Three trainers start from the same phases and take the same number of plain gradient steps of the
same size; the gradient of the loss is Σ 2(y − t)/M · ∂y/∂θ and they differ in where y and ∂y/∂θ come
from:

* **in silico**: both from the twin; the trained phases are then deployed on the hardware;
* **physics-aware** (Wright et al. 2022): y read from the hardware (noisy), ∂y/∂θ from the twin at the
  same phases;
* **in situ**: both read from the hardware. Each ∂y/∂θk is measured by the phase-shift rule, the
  difference of the intensities read with θk shifted by +π/2 and by −π/2, halved: exact for a phase
  shifter, whose intensities are sinusoidal in its phase, and noisy because every read is. (The
  adjoint method of Hughes et al. 2018, demonstrated by Pai et al. 2023, reads all the phase
  gradients of a mesh at once from interference intensities; it is exposed to read-out noise the
  same way.) With no fabrication error and no noise the three are the same computation, bit for bit.

The loss recorded is the hardware's loss without read-out noise (what averaging many reads would
give), every ``RECORD_EVERY`` steps.

Portability: every number this module returns is the same on every IEEE-754 machine. Only
elementwise NumPy arithmetic (+, −, ×, ÷, rint) is used, whose results are correctly rounded whatever
SIMD kernel computes them; sums run in a fixed order written out here; sine and cosine come from
``cis`` below (a polynomial and three angle doublings in the same elementwise arithmetic), never from
``np.sin``/``np.cos`` or the C library; the random draws are PCG64 streams of ``default_rng``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# ------------------------------------------------------------------------------------------------ settings
N_MODES = 4
MZIS: tuple[tuple[int, int], ...] = ((0, 1), (2, 3), (1, 2), (0, 1), (2, 3), (1, 2))  # four columns
N_PARAMS = 2 * len(MZIS)  # per MZI: external phase, then internal phase
N_COUPLERS = 2 * len(MZIS)
N_INPUTS = 6
N_TERMS = N_INPUTS * N_MODES  # M, the terms of the mean squared error

STEPS = 200
RECORD_EVERY = 5
TAIL = 11  # records averaged for a trainer's final loss: steps 150, 155, ..., 200
LEARNING_RATE = 3.0
INIT_SPREAD = 0.3  # rad: the initial phases are the teacher's plus this times a standard normal draw

FAB_LEVELS: tuple[int, ...] = (0, 2, 5, 10)  # fabrication error, percent
NOISE_LEVELS: tuple[int, ...] = (0, 1, 3, 10)  # read-out noise, percent of full-scale intensity
DEFAULT = (5, 1)  # (fab, noise) shown first

SEED_TASK = 20220101  # inputs, teacher phases, initial phases
SEED_FAB = 20180615  # the hardware's fabrication draws
SEED_NOISE = 20230519  # read-out noise

TRAINERS: tuple[str, ...] = ("insilico", "physics", "insitu")
TRAINER_NAMES = {"insilico": "In silico", "physics": "Physics-aware", "insitu": "In situ"}

Array = np.ndarray


# ------------------------------------------------------------------------------------------------ arithmetic
_TWO_PI = 2.0 * math.pi
_COS = tuple((-1.0) ** n / math.factorial(2 * n) for n in range(10))
_SIN = tuple((-1.0) ** n / math.factorial(2 * n + 1) for n in range(10))


def cis(x: Array | float) -> tuple[Array, Array]:
    """(cos x, sin x), elementwise, the same on every machine.

    x is reduced to [−π, π] by a whole number of turns, divided by 8 (|u| ≤ 0.4, where ten Taylor terms
    are exact to double precision) and the angle is doubled three times.
    """
    x = np.asarray(x, dtype=float)
    u = (x - np.rint(x / _TWO_PI) * _TWO_PI) * 0.125
    u2 = u * u
    c = np.full_like(u, _COS[-1])
    s = np.full_like(u, _SIN[-1])
    for a, b in zip(_COS[-2::-1], _SIN[-2::-1], strict=True):
        c = c * u2 + a
        s = s * u2 + b
    s = s * u
    for _ in range(3):
        c, s = c * c - s * s, 2.0 * c * s
    return c, s


def _sum(terms: list[Array]) -> Array:
    """Elementwise sum of arrays, left to right."""
    acc = terms[0]
    for t in terms[1:]:
        acc = acc + t
    return acc


def final_loss(curve: Sequence[float], tail: int = TAIL) -> float:
    """What a trainer ends at: the mean of the last ``tail`` recorded losses (an exactly rounded sum), so
    that one lucky or unlucky noisy step does not decide it."""
    return math.fsum(curve[-tail:]) / tail


# ------------------------------------------------------------------------------------------------ the mesh
@dataclass(frozen=True)
class Task:
    inputs_re: Array  # (N_MODES, N_INPUTS)
    inputs_im: Array
    targets: Array  # (N_MODES, N_INPUTS): the teacher's intensities on the twin
    theta0: Array  # (N_PARAMS,): where every trainer starts
    teacher: Array  # (N_PARAMS,)


@dataclass(frozen=True)
class Hardware:
    """Coupler cos/sin (N_COUPLERS, G) and phase offsets (N_PARAMS, G) for G meshes side by side."""

    coupler_c: Array
    coupler_s: Array
    offsets: Array


def fabrication_draws() -> tuple[Array, Array]:
    """The fixed standard normal draws a (per coupler) and b (per phase shifter) the fabrication error scales."""
    rng = np.random.default_rng(SEED_FAB)
    return rng.standard_normal(N_COUPLERS), rng.standard_normal(N_PARAMS)


def hardware(fabs: list[float]) -> Hardware:
    """Meshes with fabrication error ``fabs`` (fractions), one per column; fab = 0 is the twin, exactly."""
    a, b = fabrication_draws()
    f = np.asarray(fabs, dtype=float)[None, :]
    c, s = cis((math.pi / 4) * (1.0 + f * a[:, None]))
    return Hardware(c, s, f * math.pi * b[:, None])


def make_task() -> Task:
    rng = np.random.default_rng(SEED_TASK)
    raw = rng.standard_normal((2, N_MODES, N_INPUTS))
    re, im = raw[0].copy(), raw[1].copy()
    for k in range(N_INPUTS):
        norm = math.sqrt(math.fsum(float(re[j, k]) ** 2 + float(im[j, k]) ** 2 for j in range(N_MODES)))
        re[:, k] = re[:, k] / norm
        im[:, k] = im[:, k] / norm
    teacher = rng.uniform(0.0, _TWO_PI, N_PARAMS)
    theta0 = teacher + INIT_SPREAD * rng.standard_normal(N_PARAMS)
    targets = intensities(teacher[:, None], hardware([0.0]), (re, im), False)
    return Task(re, im, np.stack([t[:, 0, 0] for t in targets]), theta0, teacher)


def intensities(theta: Array, hw: Hardware, inputs: tuple[Array, Array], shifts: bool) -> list[Array]:
    """Output intensities of G meshes with phases ``theta`` (N_PARAMS, G), per mode, each (N_INPUTS, G, C).

    C = 1: the phases as set. C = 1 + 2·N_PARAMS (``shifts``): as set, then θ0 + π/2, θ0 − π/2, θ1 + π/2,
    and so on, each shift exact (by exchanging cos and sin). A shifted setting differs from the one as
    set only from its own phase shifter on, so it branches off there with a copy of the fields.
    """
    in_re, in_im = inputs
    g = theta.shape[1]
    c0, s0 = cis(theta + hw.offsets)
    pc, ps = np.tile(c0, (1, N_INPUTS)), np.tile(s0, (1, N_INPUTS))  # (N_PARAMS, K·G), index k·G + g
    cc, cs = np.tile(hw.coupler_c, (1, N_INPUTS)), np.tile(hw.coupler_s, (1, N_INPUTS))
    re = [np.repeat(in_re[j], g)[None, :] for j in range(N_MODES)]  # (C, K·G)
    im = [np.repeat(in_im[j], g)[None, :] for j in range(N_MODES)]
    for m, (a, b) in enumerate(MZIS):
        for half in range(2):  # a phase on the top arm, then a coupler
            p = 2 * m + half
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
    return [(re[j] * re[j] + im[j] * im[j]).reshape(-1, N_INPUTS, g).transpose(1, 2, 0) for j in range(N_MODES)]


def _loss(y: list[Array], targets: Array) -> Array:
    """Mean squared error over modes and inputs, of the first phase setting: (G,)."""
    terms = []
    for j in range(N_MODES):
        for k in range(N_INPUTS):
            d = y[j][k, :, 0] - targets[j, k]
            terms.append(d * d)
    return _sum(terms) / N_TERMS


def _gradient(y: list[Array], jac: list[Array], targets: Array) -> Array:
    """Σ 2(y − t)/M · ∂y/∂θ over modes and inputs: (N_PARAMS, G). ``y`` (K, G, ·) holds the reads in its first
    setting; ``jac`` (K, G, N_PARAMS) per mode."""
    terms = []
    for j in range(N_MODES):
        for k in range(N_INPUTS):
            e = (y[j][k, :, 0] - targets[j, k]) * (2.0 / N_TERMS)  # (G,)
            terms.append(e[:, None] * jac[j][k])
    return _sum(terms).T


def _shift_jacobian(y: list[Array]) -> list[Array]:
    """∂y/∂θ by the phase-shift rule, from reads in the layout of ``intensities(..., shifts=True)``."""
    return [(t[:, :, 1::2] - t[:, :, 2::2]) * 0.5 for t in y]


# ------------------------------------------------------------------------------------------------ training
@dataclass(frozen=True)
class GridRun:
    """Hardware loss every RECORD_EVERY steps, per trainer, for every (fab, noise) of the grid; and the
    in-silico trainer's loss on its own twin (the same at every grid point)."""

    steps: tuple[int, ...]
    loss: dict[tuple[int, int], dict[str, tuple[float, ...]]]
    twin_loss: tuple[float, ...]


def _join(*hws: Hardware) -> Hardware:
    return Hardware(
        np.concatenate([h.coupler_c for h in hws], axis=1),
        np.concatenate([h.coupler_s for h in hws], axis=1),
        np.concatenate([h.offsets for h in hws], axis=1),
    )


def train_grid(
    fab_levels: tuple[int, ...] = FAB_LEVELS, noise_levels: tuple[int, ...] = NOISE_LEVELS, steps: int = STEPS
) -> GridRun:
    """Run the three trainers at every (fab, noise) of the grid (percentages), all grid points side by side.

    Each step computes two batches of meshes: the reads at the phases as set (the physics-aware trainer's
    hardware, and the in-silico phases on each fab level), and the reads with every phase shifted (the
    in-silico twin, the physics-aware trainer's twin, the in-situ trainer's hardware).
    """
    task = make_task()
    grid = [(f, n) for f in fab_levels for n in noise_levels]
    n_grid, n_fab = len(grid), len(fab_levels)
    hw_grid = hardware([f / 100 for f, _ in grid])
    plain = _join(hw_grid, hardware([f / 100 for f in fab_levels]))  # physics-aware | in silico on hardware
    shifted = _join(hardware([0.0] * (1 + n_grid)), hw_grid)  # in silico | physics-aware twin | in situ
    sigma = np.asarray([n / 100 for _, n in grid], dtype=float)[None, :, None]
    rng_physics = np.random.default_rng([SEED_NOISE, 1])
    rng_insitu = np.random.default_rng([SEED_NOISE, 2])
    n_shift = 1 + 2 * N_PARAMS
    fab_index = [fab_levels.index(f) for f, _ in grid]
    inputs = (task.inputs_re, task.inputs_im)

    theta_silico = task.theta0[:, None]  # (N_PARAMS, 1): its path never sees the hardware
    theta_physics = np.repeat(task.theta0[:, None], n_grid, axis=1)  # (N_PARAMS, G)
    theta_insitu = theta_physics.copy()
    rec_steps: list[int] = []
    rec: dict[str, list[Array]] = {t: [] for t in TRAINERS}
    rec_twin: list[float] = []
    for step in range(steps + 1):
        theta_plain = np.concatenate([theta_physics, np.repeat(theta_silico, n_fab, axis=1)], axis=1)
        y_plain = intensities(theta_plain, plain, inputs, False)
        theta_shift = np.concatenate([theta_silico, theta_physics, theta_insitu], axis=1)
        y_shift = intensities(theta_shift, shifted, inputs, True)
        twin = [y[:, :1] for y in y_shift]
        physics_clean = [y[:, :n_grid] for y in y_plain]
        physics_twin = [y[:, 1 : 1 + n_grid] for y in y_shift]
        insitu = [y[:, 1 + n_grid :] for y in y_shift]
        if step % RECORD_EVERY == 0 or step == steps:
            rec_steps.append(step)
            rec_twin.append(float(_loss(twin, task.targets)[0]))
            silico_hw = _loss([y[:, n_grid:] for y in y_plain], task.targets)
            rec["insilico"].append(silico_hw[fab_index])
            rec["physics"].append(_loss(physics_clean, task.targets))
            rec["insitu"].append(_loss(insitu, task.targets))
        if step == steps:
            break
        z = rng_physics.standard_normal((N_MODES, N_INPUTS, 1, 1))
        physics_read = [physics_clean[j] + sigma * z[j] for j in range(N_MODES)]
        z = rng_insitu.standard_normal((N_MODES, N_INPUTS, 1, n_shift))
        insitu_read = [insitu[j] + sigma * z[j] for j in range(N_MODES)]
        theta_silico = theta_silico - LEARNING_RATE * _gradient(twin, _shift_jacobian(twin), task.targets)
        theta_physics = theta_physics - LEARNING_RATE * _gradient(
            physics_read, _shift_jacobian(physics_twin), task.targets
        )
        theta_insitu = theta_insitu - LEARNING_RATE * _gradient(insitu_read, _shift_jacobian(insitu_read), task.targets)

    loss = {pt: {t: tuple(float(r[i]) for r in rec[t]) for t in TRAINERS} for i, pt in enumerate(grid)}
    return GridRun(tuple(rec_steps), loss, tuple(rec_twin))
