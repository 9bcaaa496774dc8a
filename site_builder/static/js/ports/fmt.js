// Port of the number formats of site_builder/fmt.py, shared by the explorers' ports (link_kernel, breakeven,
// step_mask, amdahl, loss_curves): exact decimal rounding, half to even on exact ties as Python's format() does, with thousands
// separators. Pure functions on window.Ports.fmt, no DOM; each port that uses them re-exports the ones its
// parity cases check.
(function (root) {
  "use strict";

  function finite(x) {
    if (typeof x !== "number" || !isFinite(x)) throw new RangeError("cannot format non-finite number " + x);
    return x;
  }

  function group(digits) {
    let out = "";
    for (let i = 0; i < digits.length; i++) {
      if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
      out += digits[i];
    }
    return out;
  }

  function wholeDigits(digits) {
    if (!(Number.isInteger(digits) && digits >= 0)) throw new RangeError("digits must be a whole number, found " + digits);
    return digits;
  }

  // |x| > 0, finite, as an exact integer mantissa and power of two: |x| = m * 2**e.
  function split(x) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    const hi = view.getUint32(0);
    const biased = (hi >>> 20) & 0x7ff;
    let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
    if (biased === 0) return { m: m, e: -1074 };
    return { m: m | (1n << 52n), e: biased - 1075 };
  }

  // Python's f"{x:{sep}.{digits}f}": the exact binary value rounded half to even at any number of digits,
  // "-" for any negative value (also -0.0 and what rounds to zero). The infinities print as Python prints
  // them ("inf", "-inf"; only pct can reach them, from a finite share times 100).
  function decimal(x, digits, sep) {
    if (typeof x !== "number" || Number.isNaN(x)) throw new RangeError("cannot format non-finite number " + x);
    wholeDigits(digits);
    const neg = x < 0 || Object.is(x, -0);
    if (!isFinite(x)) return neg ? "-inf" : "inf";
    // x * 10**digits rounded half to even, as an integer q.
    let q = 0n;
    if (x !== 0) {
      const p = split(Math.abs(x));
      const scaled = p.m * 10n ** BigInt(digits);
      if (p.e >= 0) {
        q = scaled << BigInt(p.e);
      } else {
        const shift = BigInt(-p.e);
        q = scaled >> shift;
        const rest = scaled - (q << shift);
        const half = 1n << (shift - 1n);
        if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
      }
    }
    const all = q.toString().padStart(digits + 1, "0");
    const int = all.slice(0, all.length - digits);
    const frac = all.slice(all.length - digits);
    return (neg ? "-" : "") + (sep ? group(int) : int) + (digits > 0 ? "." + frac : "");
  }

  function fixed(x, digits) { return decimal(finite(x), digits, false); }
  function grouped(x, digits) { return decimal(finite(x), digits === undefined ? 0 : digits, true); }
  // Python's f"{int(n):,}": a Number is truncated toward zero (int() of a float), a BigInt printed exactly.
  function integer(n) {
    const s = (typeof n === "bigint" ? n : BigInt(Math.trunc(finite(n)))).toString();
    return s[0] === "-" ? "-" + group(s.slice(1)) : group(s);
  }
  function pct(x, digits) { return decimal(finite(x) * 100, digits === undefined ? 2 : digits, false) + "%"; }
  function unit(x, digits, suffix) { return decimal(finite(x), digits, true) + " " + suffix; }
  function ratioX(x, digits) { return decimal(finite(x), digits === undefined ? 3 : digits, false) + "x"; }

  root.Ports = root.Ports || {};
  root.Ports.fmt = {
    finite: finite, group: group, decimal: decimal, fixed: fixed, grouped: grouped, integer: integer, pct: pct,
    ratioX: ratioX, unit: unit,
  };
})(typeof window !== "undefined" ? window : globalThis);
