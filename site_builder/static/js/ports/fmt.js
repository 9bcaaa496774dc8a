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

  // Python's f"{x:{sep}.{digits}f}": the exact binary value rounded half to even, "-" for any negative
  // value (also -0.0 and what rounds to zero).
  function decimal(x, digits, sep) {
    finite(x);
    const neg = x < 0 || Object.is(x, -0);
    const a = Math.abs(x);
    if (a >= 1e21) { // an integer (every double from 2**53 up is), which toFixed would write with an exponent
      const whole = BigInt(a).toString();
      return (neg ? "-" : "") + (sep ? group(whole) : whole) + (digits > 0 ? "." + "0".repeat(digits) : "");
    }
    // Exact for every double from 2**-48 up; anything smaller is far from a rounding tie at <= 20 digits.
    const exact = a.toFixed(100);
    const dot = exact.indexOf(".");
    let int = exact.slice(0, dot);
    let frac = exact.slice(dot + 1);
    let keep = int + frac.slice(0, digits);
    const rest = frac.slice(digits);
    const last = keep.charCodeAt(keep.length - 1) - 48;
    const up = rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || last % 2 === 1));
    if (up) {
      const d = keep.split("");
      let i = d.length - 1;
      while (i >= 0 && d[i] === "9") { d[i] = "0"; i--; }
      if (i < 0) d.unshift("1"); else d[i] = String.fromCharCode(d[i].charCodeAt(0) + 1);
      keep = d.join("");
    }
    int = keep.slice(0, keep.length - digits);
    frac = keep.slice(keep.length - digits);
    return (neg ? "-" : "") + (sep ? group(int) : int) + (digits > 0 ? "." + frac : "");
  }

  function fixed(x, digits) { return decimal(x, digits, false); }
  function grouped(x, digits) { return decimal(x, digits || 0, true); }
  function integer(n) {
    finite(n);
    const s = BigInt(Math.trunc(n)).toString();
    return s[0] === "-" ? "-" + group(s.slice(1)) : group(s);
  }
  function pct(x, digits) { return decimal(finite(x) * 100, digits === undefined ? 2 : digits, false) + "%"; }
  function unit(x, digits, suffix) { return decimal(x, digits, true) + " " + suffix; }
  function ratioX(x, digits) { return decimal(x, digits === undefined ? 3 : digits, false) + "x"; }

  root.Ports = root.Ports || {};
  root.Ports.fmt = {
    finite: finite, group: group, decimal: decimal, fixed: fixed, grouped: grouped, integer: integer, pct: pct,
    ratioX: ratioX, unit: unit,
  };
})(typeof window !== "undefined" ? window : globalThis);
