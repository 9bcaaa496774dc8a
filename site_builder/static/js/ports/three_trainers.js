// Port of what the three-trainers explorer computes from the simulated grid (data/trainers):
// the grid point for a setting, a trainer's final loss (site_builder/models/trainers.py: final_loss,
// the mean of the last records by an exactly rounded sum, ports/num.js) and its text (site_builder/fmt.py: sci,
// Python's '{:.Ne}'). Pure functions, no DOM; checked against data/explorers/three_trainers.json in
// Chromium.
(function (root) {
  "use strict";

  // math.fsum, ported once (ports/num.js, loaded first).
  const fsum = root.Ports.num.fsum;

  // x > 0, finite, as an exact integer mantissa and power of two: x = m * 2**e.
  function split(x) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    const hi = view.getUint32(0);
    const lo = view.getUint32(4);
    const biased = (hi >>> 20) & 0x7ff;
    let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
    if (biased === 0) return { m: m, e: -1074 };
    m |= 1n << 52n;
    return { m: m, e: biased - 1075 };
  }

  // m * 2**e * 10**-k as an exact fraction num / den.
  function scaled(m, e, k) {
    let num = m;
    let den = 1n;
    if (e >= 0) num <<= BigInt(e); else den <<= BigInt(-e);
    if (k >= 0) den *= 10n ** BigInt(k); else num *= 10n ** BigInt(-k);
    return { num: num, den: den };
  }

  // Python's format(x, '.{digits}e'): the exact binary value rounded half to even to digits + 1
  // significant digits, a signed exponent of at least two digits.
  function sci(x, digits) {
    if (!Number.isFinite(x)) throw new RangeError("cannot format non-finite number " + x);
    if (!(Number.isInteger(digits) && digits >= 0)) throw new RangeError("digits must be a whole number, found " + digits);
    const sign = x < 0 || Object.is(x, -0) ? "-" : "";
    const a = Math.abs(x);
    let text;
    let exp = 0;
    if (a === 0) {
      text = "0".repeat(digits + 1);
    } else {
      const p = split(a);
      exp = Math.floor(Math.log10(a));
      // Make 10**exp <= a < 10**(exp + 1) exact (log10 may be one off near powers of ten).
      for (;;) {
        const f = scaled(p.m, p.e, exp);
        if (f.num < f.den) { exp -= 1; continue; }
        if (f.num >= 10n * f.den) { exp += 1; continue; }
        break;
      }
      const f = scaled(p.m, p.e, exp - digits);
      let q = f.num / f.den;
      const twice = 2n * (f.num % f.den);
      if (twice > f.den || (twice === f.den && (q & 1n) === 1n)) q += 1n;
      if (q === 10n ** BigInt(digits + 1)) { // rounding carried into the next power of ten
        q = 10n ** BigInt(digits);
        exp += 1;
      }
      text = q.toString();
    }
    const mantissa = digits > 0 ? text[0] + "." + text.slice(1) : text;
    const e = String(Math.abs(exp)).padStart(2, "0");
    return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + e;
  }

  // The index of the grid point with this fabrication error and read-out noise (percent), or -1.
  function pointIndex(points, fab, noise) {
    for (let i = 0; i < points.length; i++) {
      if (points[i].fab === fab && points[i].noise === noise) return i;
    }
    return -1;
  }

  // Python's curve[-tail:] for an integer tail: the last `tail` records, all of them when tail exceeds the
  // curve's length or is 0 (-0 is 0), and for a negative tail the records from index -tail on.
  function lastRecords(curve, tail) {
    if (!Number.isInteger(tail)) throw new RangeError("TypeError: slice indices must be integers, found " + tail);
    let start = -tail;
    if (start < 0) start = Math.max(0, curve.length + start); else start = Math.min(start, curve.length);
    return curve.slice(start);
  }

  // trainers.final_loss: the mean of the last `tail` records, math.fsum(curve[-tail:]) / tail, on every input
  // Python takes (a tail past the curve's length averages the whole curve over tail; tail 0 throws, as
  // Python raises ZeroDivisionError), and that number as the results print it.
  function finalOf(curve, tail) {
    const total = fsum(lastRecords(curve, tail));
    if (tail === 0) throw new RangeError("ZeroDivisionError: float division by zero");
    const value = total / tail;
    return { value: value, text: sci(value, 2) };
  }

  // finalOf for every trainer of a grid point ({trainer: curve}).
  function finals(loss, tail) {
    const out = {};
    Object.keys(loss).forEach(function (k) { out[k] = finalOf(loss[k], tail); });
    return out;
  }

  root.Ports = root.Ports || {};
  root.Ports.threeTrainers = { fsum: fsum, sci: sci, pointIndex: pointIndex, finalOf: finalOf, finals: finals };
})(typeof window !== "undefined" ? window : globalThis);
