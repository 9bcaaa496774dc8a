"""The explorers' ports on their whole domain: random inputs drawn in Python (``random`` with fixed seeds), the
Python function evaluated on them, the port run in Chromium on the same inputs (one page, one batched evaluate
per property), and the two held equal: strings character for character, numbers to 1e-12 relative, and bit
for bit where the port claims exactness (``Ports.num.divide`` is Python's int / int, ``fsum`` math.fsum,
``finalOf`` trainers.final_loss). Where Python raises, the port must throw, naming Python's exception where
the port says it mirrors it (num.js).
"""

from __future__ import annotations

import json
import math
import random
import statistics
import struct
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from site_builder import fmt
from site_builder.explorers import EXPLORERS, amdahl, captured_energy, link_kernel, step_mask, transit
from site_builder.explorers import breakeven as be
from site_builder.explorers.loss_curves import steps_to, wire_at
from site_builder.models.analysis import weight_mask_values
from site_builder.models.analysis.ops import padded_length
from site_builder.models.experiment import seed_band, seed_mean
from site_builder.models.trainers import final_loss
from site_builder.results.producers import ResultsText
from site_builder.results.trainers import loss_text
from tests.browser.test_ports import mismatch
from tests.conftest import PROJECT

pytestmark = pytest.mark.browser

N = 400  # random inputs per property (more where a call is cheap)

# Each case is [port, fn, args]; the page returns {got} or {error} per case. Arguments given as {"$big": "123"}
# become BigInts first.
RUN = """(cases) => cases.map(([port, fn, args]) => {
  const f = window.Ports[port][fn];
  if (typeof f !== "function") return {error: "no function " + port + "." + fn};
  const real = args.map((a) => (a !== null && typeof a === "object" && "$big" in a) ? BigInt(a.$big) : a);
  try { return {got: f.apply(null, real)}; } catch (e) { return {error: String(e)}; }
})"""


@pytest.fixture(scope="module")
def page(browser, server) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    """One page with every port loaded (the shared ports first)."""
    p = browser.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(server + "figures/")
    shared = dict.fromkeys(s for e in EXPLORERS.values() for s in e.shared)
    for src in (*shared, *(e.scripts[0] for e in EXPLORERS.values())):
        p.add_script_tag(url=server + "assets/" + src)
    assert errors == []
    yield p
    p.close()


def run(page: Any, cases: list[list[Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(0, len(cases), 500):
        out += page.evaluate(RUN, cases[i : i + 500])
    return out


def python(fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """("ok", value) or ("raises", the exception's name)."""
    try:
        return "ok", fn(*args)
    except (ValueError, ArithmeticError, TypeError, statistics.StatisticsError) as e:
        return "raises", type(e).__name__


def same_float(got: Any, want: float) -> bool:
    """Bit for bit: the same double, -0.0 and 0.0 told apart, NaN equal to NaN."""
    if not isinstance(got, int | float) or isinstance(got, bool):
        return False
    if math.isnan(want):
        return math.isnan(got)
    return float(got) == want and math.copysign(1.0, got) == math.copysign(1.0, want)


def check(
    page: Any,
    port: str,
    fn: str,
    inputs: list[list[Any]],
    twin: Callable[..., Any],
    exact: bool = False,
    named: bool = False,
    js_args: Callable[[list[Any]], list[Any]] | None = None,
) -> int:
    """Run port.fn on every input and hold it to the Python twin; returns the number of inputs checked."""
    wants = [python(twin, *args) for args in inputs]
    results = run(page, [[port, fn, js_args(a) if js_args else a] for a in inputs])
    bad = []
    for args, (status, want), res in zip(inputs, wants, results, strict=True):
        if status == "raises":
            if "error" not in res or (named and want not in res["error"]):
                bad.append(f"{fn}{tuple(args)!r}: Python raises {want}, port gives {res}")
        elif "error" in res:
            bad.append(f"{fn}{tuple(args)!r}: port throws {res['error']}, Python gives {want!r}")
        elif exact and isinstance(want, float):
            if not same_float(res["got"], want):
                bad.append(f"{fn}{tuple(args)!r}: {res['got']!r} != {want!r} (bit for bit)")
        elif (m := mismatch(res["got"], want)) is not None:
            bad.append(f"{fn}{tuple(args)!r}{m}")
    assert bad == [], f"{len(bad)} of {len(inputs)} differ: {bad[:4]}"
    return len(inputs)


# ------------------------------------------------------------------------------------------------ drawing
def any_double(rnd: random.Random) -> float:
    """A finite double from its bits: every exponent, subnormals and both zeros as likely as any."""
    while True:
        x = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
        if math.isfinite(x):
            return x


def plain_double(rnd: random.Random) -> float:
    """A double a model might meet: binary fractions (exact ties), decimals, wide magnitudes."""
    k = rnd.random()
    sign = rnd.choice((1, -1))
    if k < 0.3:
        return sign * rnd.randint(0, 10**6) / rnd.choice((1, 2, 4, 8, 16, 1024, 1000, 10**6))
    if k < 0.6:
        return sign * rnd.uniform(0, 1) * 10.0 ** rnd.randint(-30, 30)
    if k < 0.8:
        return any_double(rnd)
    return sign * rnd.choice(
        (0.0, 0.5, 1.0, 2.5, 9.995, 0.125, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308)
    )


def big_int(rnd: random.Random) -> int:
    """An integer of 0 to 2,200 bits, sometimes a power of two or next to one."""
    bits = rnd.choice((rnd.randint(0, 64), rnd.randint(0, 200), rnd.randint(0, 2200)))
    k = rnd.random()
    if k < 0.2:
        return 1 << bits
    if k < 0.35:
        return (1 << bits) + rnd.choice((-1, 1))
    return rnd.getrandbits(bits) if bits else rnd.randint(0, 1)


# ------------------------------------------------------------------------------------------------ num.js
def test_the_issue_examples(page):
    cases = [
        ["amdahl", "divide", ["1", str(2**1000)]],
        ["stepMask", "ratio", [{"$big": "1"}, {"$big": str(2**1000)}]],
        ["stepMask", "ratio", [{"$big": str(2**1100)}, {"$big": str(3**600)}]],
        ["threeTrainers", "finalOf", [[1, 2, 3], 5]],
        ["num", "fsum", [[math.inf, 1]]],
        ["num", "fsum", [[math.inf, -math.inf]]],
        ["num", "divide", [str(2**1024), "1"]],
    ]
    got = run(page, cases)
    assert got[0]["got"] == 1 / 2**1000 == 9.332636185032189e-302
    assert got[1]["got"] == 1 / 2**1000
    assert got[2]["got"] == 2**1100 / 3**600
    assert (
        got[3]["got"] == {"value": 1.2, "text": "1.20e+00"} == {"value": final_loss([1, 2, 3], 5), "text": "1.20e+00"}
    )
    assert got[4]["got"] == math.inf == math.fsum([math.inf, 1])
    assert "ValueError" in got[5]["error"] and got[5]["error"].startswith("RangeError")
    assert "OverflowError" in got[6]["error"] and got[6]["error"].startswith("RangeError")
    # One helper: the two ports' divisions are Ports.num.divide.
    assert page.evaluate("() => Ports.amdahl.divide === Ports.num.divide && Ports.stepMask.ratio === Ports.num.divide")


def test_divide_is_python_int_true_division_bit_for_bit(page):
    rnd = random.Random(21)
    inputs: list[list[Any]] = []
    for _ in range(3 * N):
        a, b = big_int(rnd), big_int(rnd)
        inputs.append([a * rnd.choice((1, -1)), b * rnd.choice((1, 1, -1))])
    # Near the edges: subnormal results and their ties, the smallest double and half of it, the top binade.
    for _ in range(N):
        m = rnd.getrandbits(rnd.randint(1, 60)) | 1
        inputs.append([m, 1 << rnd.randint(1000, 1140)])
        inputs.append([(1 << 1024) - rnd.getrandbits(rnd.randint(960, 975)), rnd.choice((1, 1, 3))])
        inputs.append([rnd.getrandbits(rnd.randint(1, 3000)), rnd.getrandbits(rnd.randint(1, 3000)) or 1])
    inputs += [[1, 2**1074], [1, 2**1075], [3, 2**1076], [1, 2**1075 - 1], [2**1024 - 2**970, 1], [0, -5], [5, 0]]
    count = check(
        page,
        "num",
        "divide",
        inputs,
        lambda a, b: a / b,
        exact=True,
        named=True,
        js_args=lambda a: [str(x) for x in a],
    )
    # Numbers and BigInts are the same integers as their decimal strings.
    small = [[rnd.randint(-(2**53), 2**53), rnd.randint(1, 2**53)] for _ in range(N)]
    count += check(page, "num", "divide", small, lambda a, b: a / b, exact=True)
    count += check(
        page,
        "stepMask",
        "ratio",
        small,
        lambda a, b: a / b,
        exact=True,
        js_args=lambda a: [{"$big": str(x)} for x in a],
    )
    assert count >= 6 * N


def fsum_list(rnd: random.Random) -> list[float]:
    n = rnd.randint(0, 30)
    values = [rnd.choice((any_double, plain_double))(rnd) for _ in range(n)]
    k = rnd.random()
    if k < 0.3 and values:  # cancellation: some values and their negatives
        values += [-v for v in rnd.sample(values, rnd.randint(1, len(values)))]
    elif k < 0.4:
        values += rnd.choices((math.inf, -math.inf, math.nan), k=rnd.randint(1, 3))
    elif k < 0.5:
        values += [1.7976931348623157e308, rnd.choice((1e308, 1.7976931348623157e308, -1e308))]
    elif k < 0.6:
        values += [rnd.choice((0.0, -0.0)) for _ in range(rnd.randint(1, 4))]
    rnd.shuffle(values)
    return values


def test_fsum_is_math_fsum_bit_for_bit(page):
    rnd = random.Random(2)
    inputs = [[fsum_list(rnd)] for _ in range(3 * N)]
    inputs += [[[]], [[-0.0]], [[-0.0, -0.0]], [[math.inf, 1]], [[math.nan, math.inf]], [[math.inf, -math.inf]]]
    inputs += [[[1e308, 1e308]], [[1e308, 1e308, -1e308]], [[0.1] * 10], [[1e100, 1.0, -1e100]]]
    check(page, "num", "fsum", inputs, math.fsum, exact=True, named=True)


def test_fmean_is_statistics_fmean(page):
    rnd = random.Random(3)
    inputs = [[fsum_list(rnd)] for _ in range(N)] + [[[]]]
    check(page, "num", "fmean", inputs, statistics.fmean, exact=True, named=True)


# ------------------------------------------------------------------------------------------------ three trainers
def final_of(curve: list[float], tail: int) -> dict[str, Any]:
    value = final_loss(curve, tail)
    return {"value": value, "text": loss_text(value)}


def test_final_of_is_final_loss_on_any_curve_and_tail(page):
    rnd = random.Random(4)
    inputs: list[list[Any]] = []
    for _ in range(2 * N):
        curve = [abs(plain_double(rnd)) if rnd.random() < 0.8 else plain_double(rnd) for _ in range(rnd.randint(0, 12))]
        inputs.append([curve, rnd.randint(-15, 15)])
    inputs += [[[1, 2, 3], 5], [[1, 2, 3], 0], [[], 3], [[1.0, 2.0], -1], [[1.0, 2.0], -5]]
    wants = [python(final_of, *a) for a in inputs]
    results = run(page, [["threeTrainers", "finalOf", a] for a in inputs])
    bad = []
    for args, (status, want), res in zip(inputs, wants, results, strict=True):
        if status == "raises":
            if "error" not in res:
                bad.append((args, want, res))
        elif "error" in res or res["got"]["text"] != want["text"] or not same_float(res["got"]["value"], want["value"]):
            bad.append((args, want, res))
    assert bad == [], f"{len(bad)} of {len(inputs)} differ: {bad[:4]}"


def test_sci_is_python_e_format(page):
    rnd = random.Random(5)
    inputs = [
        [rnd.choice((any_double, plain_double))(rnd), rnd.choice((0, 1, 2, 2, 3, 6, 16, 40))] for _ in range(3 * N)
    ]
    inputs += [[math.inf, 2], [math.nan, 2], [1.0, -1]]
    check(page, "threeTrainers", "sci", inputs, fmt.sci)


# ------------------------------------------------------------------------------------------------ fmt.js
FORMATS: dict[str, Callable[..., str]] = {
    "fixed": fmt.fixed,
    "grouped": fmt.grouped,
    "pct": fmt.pct,
    "ratioX": fmt.ratio_x,
}


@pytest.mark.parametrize("fn", sorted(FORMATS))
def test_formats_are_fmt_py(page, fn):
    rnd = random.Random(6 + sorted(FORMATS).index(fn))
    inputs = [
        [rnd.choice((any_double, plain_double))(rnd), rnd.choice((0, 1, 2, 3, 4, 8, 20, 60, 120, 400))]
        for _ in range(3 * N)
    ]
    inputs += [[math.inf, 2], [math.nan, 2], [1.5, -1], [-0.0, 2], [-0.001, 2], [1e307, 2]]
    check(page, "fmt", fn, inputs, FORMATS[fn])


def test_unit_and_integer_are_fmt_py(page):
    rnd = random.Random(10)
    inputs = [
        [rnd.choice((any_double, plain_double))(rnd), rnd.randint(0, 30), rnd.choice("s ms kJ".split())]
        for _ in range(N)
    ]
    check(page, "fmt", "unit", inputs, fmt.unit)
    ints = [[rnd.randint(-(2**53), 2**53)] for _ in range(N)] + [[plain_double(rnd)] for _ in range(N)]
    check(page, "fmt", "integer", ints, fmt.integer)
    huge = [[rnd.getrandbits(rnd.randint(1, 300)) * rnd.choice((1, -1))] for _ in range(N)]
    check(page, "fmt", "integer", huge, fmt.integer, js_args=lambda a: [{"$big": str(a[0])}])


# ------------------------------------------------------------------------------------------------ loss curves
def test_loss_curves_band_wire_steps_and_marks(page):
    rnd = random.Random(11)
    seeds = []
    for _ in range(N):
        n = rnd.randint(0, 8)
        seeds.append([[[plain_double(rnd) for _ in range(n)] for _ in range(rnd.randint(0, 5))]])
    seeds += [[[[0.0, -0.0], [-0.0, 0.0]]], [[[1.0, 2.0], [3.0]]], [[]]]

    def band(per_seed: list[list[float]]) -> dict[str, list[float]]:
        mean, low, high = seed_band(per_seed)
        return {"mean": mean, "low": low, "high": high}

    check(page, "lossCurves", "band", seeds, band)
    check(page, "lossCurves", "wireGB", seeds, lambda s: [w / 1e9 for w in seed_mean(s)])
    per_seed = [[[rnd.choice((None, rnd.randint(0, 10**6))) for _ in range(rnd.randint(0, 5))]] for _ in range(N)]
    per_seed += [[[]], [[None]], [[100, 200, 201]]]
    check(page, "lossCurves", "stepsTo", per_seed, steps_to)
    marks = []
    for _ in range(N):
        steps = sorted(rnd.sample(range(1, 10**5), rnd.randint(1, 8)))
        wire = sorted(abs(plain_double(rnd)) for _ in steps)
        marks.append([steps, wire, rnd.choice((rnd.uniform(0, steps[-1] * 1.1), float(rnd.choice(steps))))])
    marks += [[[10, 20], [1.0], 15.0], [[10, 20], [1.0], 25.0], [[10], [1.0, 2.0], 5.0]]
    check(page, "lossCurves", "wireAt", marks, wire_at)


# ------------------------------------------------------------------------------------------------ the models
def committed(*names: str) -> dict[str, ResultsText]:
    out = {}
    for name in names:
        folder = PROJECT / "data" / name
        md, js = (folder / "results.md").read_text("utf-8"), (folder / "results.json").read_text("utf-8")
        out[name] = ResultsText(name, md, js)
    return out


def test_amdahl_view_at_any_step_and_the_mask_pieces_at_any_length(page):
    docs = committed("analysis")
    data = docs["analysis"].data
    config = amdahl._config(data)
    c = data["constants"]
    rnd = random.Random(12)
    inputs = []
    for _ in range(N // 4):
        v, n = rnd.choice(c["variants"]), rnd.choice(c["lengths"])
        t = n * rnd.choice((1, rnd.randint(1, 2**10), rnd.randint(1, 2**24)))
        inputs.append([v, n, t])
    check(
        page,
        "amdahl",
        "view",
        inputs,
        amdahl.view,
        js_args=lambda a: [config, amdahl._entry(data, a[0], a[1]), a[1], a[2]],
    )
    # Lengths up to 2**53 (a safe integer; the port takes Numbers): the mask values pass 2**53 long before.
    lengths = [
        [rnd.choice((rnd.randint(1, 2**16), rnd.randint(1, 2**40), rnd.randint(1, 2**53 - 1)))] for _ in range(N)
    ]
    check(page, "amdahl", "paddedLength", [*lengths, [0], [-3]], padded_length)
    masks = [[rnd.choice(c["variants"][1:]), n[0]] for n in lengths[: N // 2]]
    check(
        page,
        "amdahl",
        "weightMaskValues",
        masks,
        weight_mask_values,
        js_args=lambda a: [config, amdahl._entry(data, a[0], c["lengths"][0]), a[1]],
    )


def test_step_mask_outputs_at_any_setting(page):
    docs = committed("analysis")
    masks = docs["analysis"].data["masks"]
    rnd = random.Random(13)
    inputs = []
    for _ in range(N // 4):
        v = rnd.choice(list(masks["terms"]))
        n = int(rnd.choice(list(masks["terms"][v])))
        mp = rnd.choice((1, 2, 4, 8, rnd.randint(1, 64)))
        settings = {
            # up to 2**53 tokens (a safe integer): frames and data values then pass 2**53
            "step_tokens": n
            * rnd.choice((1, rnd.randint(1, 2**12), rnd.randint(1, 2**22), rnd.randint(1, 2**53 // n))),
            "gpus": mp * rnd.choice((1, rnd.randint(1, 64), rnd.randint(1, 4096))),
            "tflops": rnd.choice((1000.0, rnd.uniform(0.5, 5000.0))),
            "pixels": rnd.choice((1, rnd.randint(1, 1000), rnd.randint(1, 2**24))),
            "frame_rate_hz": rnd.choice((rnd.uniform(1.0, 1e5), float(rnd.randint(1, 50_000)))),
            "model_parallel": mp,
            "schedule": rnd.choice(("layer-major", "sequence-major")),
            "microbatch": rnd.randint(1, 64),
        }
        inputs.append([v, n, settings, rnd.random() < 0.5, rnd.random() < 0.5])
    check(
        page,
        "stepMask",
        "outputs",
        inputs,
        step_mask.outputs,
        js_args=lambda a: [step_mask.terms_of(docs, a[0], a[1]), a[2], a[3], a[4]],
    )


def test_captured_energy_table_on_any_shares(page):
    rnd = random.Random(14)
    inputs = []
    for _ in range(N):
        selectors = rnd.sample(["a", "b", "c", "d"], rnd.randint(0, 4))
        values = {
            g: {s: abs(plain_double(rnd)) for s in rnd.sample(["a", "b", "c", "d"], rnd.randint(0, 4))}
            for g in rnd.sample(["x", "y", "z"], rnd.randint(0, 3))
        }
        inputs.append([values, rnd.choice((0.25, rnd.uniform(1e-3, 1.0))), selectors])
    check(page, "capturedEnergy", "table", inputs, captured_energy.table)


def test_breakeven_outputs_at_any_bandwidth(page):
    docs = committed("simulation")
    sim = be.rebuild(docs)
    models = {b: be.model(docs, b) for b in be.BUDGETS}
    rnd = random.Random(15)
    inputs = []
    for _ in range(N // 8):
        bw = rnd.choice((10 ** rnd.uniform(-1, 3) * 1e9, 10 ** rnd.uniform(-6, 9) * 1e9, rnd.uniform(1e6, 1e13)))
        inputs.append([bw, rnd.choice(be.BASES), rnd.choice(be.BUDGETS), rnd.random() < 0.5])

    def want(bw: float, basis: str, budget: str, mean: bool) -> dict[str, Any]:
        return be.outputs(sim, bw, basis, budget, mean)

    check(
        page,
        "breakeven",
        "outputs",
        inputs,
        want,
        js_args=lambda a: [models[a[2]], {"bandwidth": a[0], "basis": a[1], "budget": a[2], "mean": a[3]}],
    )


def test_link_kernel_outputs_at_any_setting(page):
    docs = committed("simulation")
    sim = link_kernel.rebuild(docs)
    m = link_kernel.model(docs)
    rnd = random.Random(16)
    inputs = []
    for _ in range(N // 8):
        budget = rnd.choice((*link_kernel.BUDGETS, None, rnd.uniform(1e8, 1e12)))
        fpga = rnd.choice((float(rnd.randint(1, 40)) * 1e9, rnd.uniform(1e6, 1e12)))
        inputs.append([rnd.choice(link_kernel.VARIANTS), budget, rnd.randint(1, 40), fpga])
    check(
        page,
        "linkKernel",
        "outputs",
        inputs,
        lambda v, b, planes, fpga: link_kernel.outputs(sim, v, b, planes, fpga),
        js_args=lambda a: [m, {"variant": a[0], "budget": a[1], "planes": a[2], "fpga": a[3]}],
    )


def test_transit_outputs_at_any_choice(page):
    docs = committed("experiment", "simulation")
    inputs_, presets = transit.inputs_of(docs), transit.presets_of(docs)
    t = docs["simulation"].data["transit"]
    m = transit.model(docs)
    rnd = random.Random(17)
    links = sorted(m["links"])
    choices = []
    for _ in range(N // 4):
        v, b = rnd.choice(transit.ROWS)
        dcs, per_dc = rnd.randint(1, 8), rnd.randint(1, 16)
        wan = None if dcs == 1 else rnd.choice(links)
        choices.append([transit._choice(v, b, dcs, per_dc, wan, rnd.choice(t["targets"]))])
    check(
        page,
        "transit",
        "outputs",
        choices,
        lambda c: transit.outputs(inputs_, presets, c),
        js_args=lambda a: [m, a[0]],
    )


def test_property_inputs_are_json(page):
    # What the page gets is what Python drew: -0.0, NaN and the infinities survive the trip.
    got = page.evaluate(
        "(xs) => xs.map((x) => Object.is(x, -0) ? 'neg0' : String(x))", [-0.0, math.nan, math.inf, 5e-324]
    )
    assert got == ["neg0", "NaN", "Infinity", "5e-324"]
    assert json.dumps(1.0)
