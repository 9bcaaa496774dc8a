// Numerics shared by the explorers' ports: Python's math.fsum and statistics.fmean (three_trainers, loss_curves)
// and Python's int / int true division (amdahl, step_mask). Pure functions on window.Ports.num, no DOM; loaded
// first (Explorer `shared=NUM` in site_builder/explorers/__init__.py) on pages with those charts and in the port
// parity test. Each port that uses them re-exports the ones its parity cases check.
//
// Domain: every input the Python twin accepts, with Python's result or Python's error. An error Python raises
// is thrown here as a RangeError whose message starts with the Python exception's name and its message
// ("ZeroDivisionError: division by zero", "OverflowError: integer division result too large for a float",
// "ValueError: -inf + inf in fsum", ...).
(function (root) {
  "use strict";

  function pythonError(kind, message) { return new RangeError(kind + ": " + message); }

  // ------------------------------------------------------------------------------------ int / int
  function bitLength(n) { return n === 0n ? 0 : n.toString(2).length; }

  // 2**k as a double, built from its bits (exact for every k in [-1074, 1023]; Math.pow need not be).
  function pow2(k) {
    const view = new DataView(new ArrayBuffer(8));
    if (k >= -1022) {
      view.setUint32(0, (k + 1023) << 20);
    } else {
      const bit = k + 1074; // a subnormal: one mantissa bit
      if (bit >= 32) view.setUint32(0, 1 << (bit - 32)); else view.setUint32(4, 2 ** bit);
    }
    return view.getFloat64(0);
  }

  function toBigInt(x, name) {
    if (typeof x === "bigint") return x;
    if (typeof x === "number" && !Number.isInteger(x)) throw new RangeError(name + " must be an integer, found " + x);
    if (typeof x !== "number" && typeof x !== "string") throw new RangeError(name + " must be an integer, found " + x);
    return BigInt(x);
  }

  // a / b for integers of any size (BigInt, integral Number or decimal string) as Python's int / int: the
  // exact quotient correctly rounded to the nearest double, ties to even, subnormal results included (they
  // round to a multiple of 2**-1074); 0 / negative is -0. A quotient that rounds past the largest double
  // throws (Python raises OverflowError), as does b = 0 (ZeroDivisionError).
  function divide(a, b) {
    a = toBigInt(a, "the numerator");
    b = toBigInt(b, "the denominator");
    if (b === 0n) throw pythonError("ZeroDivisionError", "division by zero");
    const negative = (a < 0n) !== (b < 0n);
    if (a < 0n) a = -a;
    if (b < 0n) b = -b;
    if (a === 0n) return negative ? -0 : 0;
    // E = floor(log2(a / b)): la - lb or one less.
    const d = bitLength(a) - bitLength(b);
    const atLeast = d >= 0 ? a >= b << BigInt(d) : a << BigInt(-d) >= b;
    const exp = atLeast ? d : d - 1;
    if (exp > 1023) throw pythonError("OverflowError", "integer division result too large for a float");
    // The unit of the last kept bit: 53 significant bits, or 2**-1074 for a subnormal result.
    const u = Math.max(exp - 52, -1074);
    const num = u <= 0 ? a << BigInt(-u) : a;
    const den = u <= 0 ? b : b << BigInt(u);
    let m = num / den;
    const twice = 2n * (num % den);
    if (twice > den || (twice === den && (m & 1n) === 1n)) m += 1n;
    // m <= 2**53; a round-up to 2**53 moves into the next binade (at the top, past the largest double).
    if (u + bitLength(m) - 1 > 1023) throw pythonError("OverflowError", "integer division result too large for a float");
    const x = Number(m) * pow2(u); // exact: m * 2**u is a double
    return negative ? -x : x;
  }

  // ------------------------------------------------------------------------------------ math.fsum
  // Exactly rounded sum: Shewchuk's partials, step for step CPython 3.11's math.fsum, so that a mean equals
  // statistics.fmean / math.fsum(...) / n to the last bit whatever the order of the values. Non-finite values
  // as Python: a NaN gives NaN, infinities of one sign that infinity, inf + -inf throws (ValueError), and a
  // partial sum of finite values past the largest double throws (OverflowError: intermediate overflow). An
  // empty or all-zero sum is 0 (never -0).
  function fsum(values) {
    const partials = [];
    let specialSum = 0;
    let infSum = 0;
    for (const value of values) {
      if (typeof value !== "number") throw new RangeError("TypeError: must be real number, not " + typeof value);
      let x = value;
      let i = 0;
      for (let j = 0; j < partials.length; j++) {
        let y = partials[j];
        if (Math.abs(x) < Math.abs(y)) { const t = x; x = y; y = t; }
        const hi = x + y;
        const lo = y - (hi - x);
        if (lo !== 0) partials[i++] = lo;
        x = hi;
      }
      partials.length = i;
      if (x !== 0) {
        if (!Number.isFinite(x)) {
          // From a NaN or an infinity among the values, or from an overflow of finite ones.
          if (Number.isFinite(value)) throw pythonError("OverflowError", "intermediate overflow in fsum");
          if (value === Infinity || value === -Infinity) infSum += value;
          specialSum += value;
          partials.length = 0;
        } else {
          partials.push(x);
        }
      }
    }
    if (specialSum !== 0) { // NaN !== 0 too
      if (Number.isNaN(infSum)) throw pythonError("ValueError", "-inf + inf in fsum");
      return specialSum;
    }
    let n = partials.length;
    if (n === 0) return 0;
    let hi = partials[--n];
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = partials[--n];
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    // Round half to even across the remaining partials, as math.fsum does.
    if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }

  // statistics.fmean(values): fsum / n; no values throws (StatisticsError).
  function fmean(values) {
    const total = fsum(values);
    if (values.length === 0) throw pythonError("StatisticsError", "fmean requires at least one data point");
    return total / values.length;
  }

  root.Ports = root.Ports || {};
  root.Ports.num = { divide: divide, fsum: fsum, fmean: fmean, pow2: pow2, bitLength: bitLength };
})(typeof window !== "undefined" ? window : globalThis);
