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
from dataclasses import field

import numpy as np

from site_builder.datatypes import dataclass

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
    _tables: dict[tuple[int, int], tuple[Array, Array]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def coupler_tables(self, n_inputs: int, n_set: int) -> tuple[Array, Array]:
        """The couplers' cos and sin repeated for every input (column k·G + g) and phase setting:
        (N_COUPLERS, n_set, n_inputs·G) each, made once per shape."""
        key = (n_inputs, n_set)
        if key not in self._tables:
            c, s = np.tile(self.coupler_c, (1, n_inputs)), np.tile(self.coupler_s, (1, n_inputs))
            self._tables[key] = (np.repeat(c[:, None, :], n_set, axis=1), np.repeat(s[:, None, :], n_set, axis=1))
        return self._tables[key]


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
    targets = intensities(teacher[:, None], hardware([0.0]), (re, im), False)[:, 0, :, 0]
    return Task(re, im, targets, theta0, teacher)


# (re, im) reversed, times these, is (−im, re) = i·(re + i·im) and (im, −re) = −i·(re + i·im): (part, setting, 1)
_TIMES_I = np.array([[-1.0, 1.0], [1.0, -1.0]])[:, :, None]


def intensities(theta: Array, hw: Hardware, inputs: tuple[Array, Array], shifts: bool) -> Array:
    """Output intensities of G meshes with phases ``theta`` (N_PARAMS, G): (N_MODES, C, N_INPUTS, G).

    C = 1: the phases as set. C = 1 + 2·N_PARAMS (``shifts``): as set, then θ0 + π/2, θ0 − π/2, θ1 + π/2,
    and so on. A shifted setting differs from the one as set only from its own phase shifter on, so it
    branches off there: right after that phase shifter its mode is i or −i times the mode as set. That is
    exact: the textbook shift, (ar·c − ai·s, ai·c + ar·s) with (c, s) exchanged for (−s, c) or (s, −c),
    gives the same numbers (−(ai·c + ar·s), ar·c − ai·s) and (ai·c + ar·s, −(ar·c − ai·s)); a zero may
    differ in sign, which no later product or sum turns into a difference and the squared intensities lose.
    """
    c0, s0 = cis(theta + hw.offsets)
    return _mesh(c0, s0, hw, inputs, shifts)


def _mesh(c0: Array, s0: Array, hw: Hardware, inputs: tuple[Array, Array], shifts: bool) -> Array:
    """``intensities`` from the cos and sin (N_PARAMS, G) of the phases plus the hardware's offsets.

    The fields are one array (N_MODES, 2, C, N_INPUTS·G): mode, real and imaginary part, phase setting, and
    column k·G + g (input k on mesh g). The settings computed so far (the first n) of one mode's real or
    imaginary part are one contiguous (n, N_INPUTS·G) block, and so are the cos and sin they are multiplied
    by (the couplers' from ``Hardware.coupler_tables``, each phase's copied into ``phase_c``, ``phase_s``),
    so every operation is one elementwise pass over contiguous memory, writing into arrays made once. The
    operations, and their order, are the textbook update of one mode's (re, im) after another.
    """
    in_re, in_im = inputs
    g = c0.shape[1]
    n_set = 1 + 2 * N_PARAMS if shifts else 1
    kg = N_INPUTS * g
    pc, ps = np.tile(c0, (1, N_INPUTS)), np.tile(s0, (1, N_INPUTS))  # (N_PARAMS, K·G), column k·G + g
    coupler_c, coupler_s = hw.coupler_tables(N_INPUTS, n_set)  # (N_COUPLERS, C, K·G)

    fields = np.empty((N_MODES, 2, n_set, kg))
    fields[:, 0, 0] = np.repeat(in_re, g, axis=1)
    fields[:, 1, 0] = np.repeat(in_im, g, axis=1)
    re, im = fields[:, 0], fields[:, 1]  # (N_MODES, C, K·G)
    phase_c, phase_s = np.empty((2, n_set, kg))
    scratch = np.empty((4, n_set, kg))  # for the products of one update
    n = 1  # settings computed so far
    for m, (a, b) in enumerate(MZIS):
        for half in range(2):  # a phase on the top arm, then a coupler
            p = 2 * m + half
            if n == 1:
                c, s = pc[p : p + 1], ps[p : p + 1]
            else:  # the phase's cos and sin for every setting so far
                c, s = phase_c[:n], phase_s[:n]
                c[...], s[...] = pc[p], ps[p]
            ar, ai = re[a, :n], im[a, :n]
            t0, t1, t2, t3 = scratch[:, :n]
            np.multiply(ar, c, out=t0)
            np.multiply(ai, s, out=t1)
            np.multiply(ar, s, out=t2)
            np.multiply(ai, c, out=t3)
            np.subtract(t0, t1, out=ar)  # ar·c − ai·s
            np.add(t2, t3, out=ai)  # ar·s + ai·c
            if shifts:  # the settings shifted here, 1 + 2p and 2 + 2p: i and −i times the mode a as set
                fields[:, :, n : n + 2] = fields[:, :, :1]
                np.multiply(fields[a, ::-1, :1], _TIMES_I, out=fields[a, :, n : n + 2])
                n += 2
                ar, ai, t0, t1, t2, t3 = re[a, :n], im[a, :n], *scratch[:, :n]
            c, s = coupler_c[p, :n], coupler_s[p, :n]
            br, bi = re[b, :n], im[b, :n]
            np.multiply(s, bi, out=t0)
            np.multiply(s, br, out=t1)
            np.multiply(s, ai, out=t2)
            np.multiply(s, ar, out=t3)
            np.subtract(np.multiply(c, ar, out=ar), t0, out=ar)  # c·ar − s·bi
            np.add(np.multiply(c, ai, out=ai), t1, out=ai)  # c·ai + s·br
            np.subtract(np.multiply(c, br, out=br), t2, out=br)  # c·br − s·ai
            np.add(np.multiply(c, bi, out=bi), t3, out=bi)  # c·bi + s·ar
    sq = fields * fields
    return (sq[:, 0] + sq[:, 1]).reshape(N_MODES, n_set, N_INPUTS, g)


def _loss(y: Array, targets: Array) -> Array:
    """Mean squared error over modes and inputs, of the first phase setting of ``y`` (N_MODES, C, K, G): (G,).
    The squares are summed mode by mode, input by input within a mode."""
    d = y[:, 0] - targets[:, :, None]
    return _sum(list((d * d).reshape(N_TERMS, -1))) / N_TERMS


def _gradient(y: Array, jac: Array, targets: Array) -> Array:
    """Σ 2(y − t)/M · ∂y/∂θ over modes and inputs: (N_PARAMS, G). ``y`` (N_MODES, K, G) holds the reads at the
    phases as set, ``jac`` (N_MODES, N_PARAMS, K, G) their derivatives; summed as ``_loss`` sums."""
    e = (y - targets[:, :, None]) * (2.0 / N_TERMS)  # (N_MODES, K, G)
    terms = e[:, None] * jac
    return _sum([terms[j, :, k] for j in range(N_MODES) for k in range(N_INPUTS)])


def _shift_jacobian(y: Array) -> Array:
    """∂y/∂θ by the phase-shift rule, (N_MODES, N_PARAMS, K, G), from reads in the layout of
    ``intensities(..., shifts=True)``."""
    return (y[:, 1::2] - y[:, 2::2]) * 0.5


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
    in-silico twin, the physics-aware trainer's twin, the in-situ trainer's hardware). The phases of the
    three trainers are kept side by side in the shifted batch's order, columns (in silico | physics-aware |
    in situ), and one gradient is computed for all of them: every column is its own computation.
    """
    task = make_task()
    grid = [(f, n) for f in fab_levels for n in noise_levels]
    n_grid, n_fab = len(grid), len(fab_levels)
    hw_grid = hardware([f / 100 for f, _ in grid])
    plain = _join(hw_grid, hardware([f / 100 for f in fab_levels]))  # physics-aware | in silico on hardware
    shifted = _join(hardware([0.0] * (1 + n_grid)), hw_grid)  # in silico | physics-aware twin | in situ
    sigma = np.asarray([n / 100 for _, n in grid], dtype=float)
    rng_physics = np.random.default_rng([SEED_NOISE, 1])
    rng_insitu = np.random.default_rng([SEED_NOISE, 2])
    n_shift = 1 + 2 * N_PARAMS
    n_plain = n_grid + n_fab
    fab_index = [fab_levels.index(f) for f, _ in grid]
    inputs = (task.inputs_re, task.inputs_im)
    physics = slice(1, 1 + n_grid)  # the physics-aware trainer's columns of the shifted batch
    insitu = slice(1 + n_grid, None)  # the in-situ trainer's

    theta = np.repeat(task.theta0[:, None], 1 + 2 * n_grid, axis=1)  # (N_PARAMS, 1 + 2G): shifted batch's order
    rec_steps: list[int] = []
    rec: dict[str, list[Array]] = {t: [] for t in TRAINERS}
    rec_twin: list[float] = []
    for step in range(steps + 1):
        theta_plain = np.concatenate([theta[:, physics], np.repeat(theta[:, :1], n_fab, axis=1)], axis=1)
        c, s = cis(np.concatenate([theta_plain + plain.offsets, theta + shifted.offsets], axis=1))
        y_plain = _mesh(c[:, :n_plain], s[:, :n_plain], plain, inputs, False)  # (N_MODES, 1, K, n_plain)
        y_shift = _mesh(c[:, n_plain:], s[:, n_plain:], shifted, inputs, True)  # (N_MODES, n_shift, K, 1 + 2G)
        if step % RECORD_EVERY == 0 or step == steps:
            rec_steps.append(step)
            loss_plain, loss_shift = _loss(y_plain, task.targets), _loss(y_shift, task.targets)
            rec_twin.append(float(loss_shift[0]))
            rec["insilico"].append(loss_plain[n_grid:][fab_index])
            rec["physics"].append(loss_plain[:n_grid])
            rec["insitu"].append(loss_shift[insitu])
        if step == steps:
            break
        # reads: the twin's as computed, the physics-aware trainer's hardware reads (as set) and every in-situ
        # read with its noise; derivatives by the phase-shift rule from the shifted batch, noise and all
        z = rng_physics.standard_normal((N_MODES, N_INPUTS, 1, 1))
        physics_read = y_plain[:, 0, :, :n_grid] + sigma * z[:, :, :, 0]
        z = rng_insitu.standard_normal((N_MODES, N_INPUTS, 1, n_shift))
        reads = y_shift.copy()
        reads[..., insitu] = y_shift[..., insitu] + sigma * z.transpose(0, 3, 1, 2)
        read0 = reads[:, 0].copy()
        read0[..., physics] = physics_read
        theta = theta - LEARNING_RATE * _gradient(read0, _shift_jacobian(reads), task.targets)

    loss = {pt: {t: tuple(float(r[i]) for r in rec[t]) for t in TRAINERS} for i, pt in enumerate(grid)}
    return GridRun(tuple(rec_steps), loss, tuple(rec_twin))
