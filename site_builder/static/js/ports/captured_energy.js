// Port of the captured-energy layout (site_builder/explorers/captured_energy.py: table) and of the number
// formats it prints with (site_builder/fmt.py: fixed, ratio_x). Pure functions, no DOM; checked against
// data/explorers/captured_energy.json in Chromium (raw values to 1e-12 relative, printed values character
// for character).
(function (root) {
  "use strict";

  function finite(x) {
    if (typeof x !== "number" || !isFinite(x)) throw new RangeError("cannot format non-finite number " + x);
    return x;
  }

  // Python's f"{x:.{digits}f}": the exact binary value rounded half to even, "-" for any negative value.
  function decimal(x, digits) {
    finite(x);
    const neg = x < 0 || Object.is(x, -0);
    const a = Math.abs(x);
    if (a >= 1e21) throw new RangeError("number too large to format: " + x);
    const exact = a.toFixed(100); // exact for every double from 2**-48 up; smaller ones are never near a tie
    const dot = exact.indexOf(".");
    let keep = exact.slice(0, dot) + exact.slice(dot + 1, dot + 1 + digits);
    const rest = exact.slice(dot + 1 + digits);
    const last = keep.charCodeAt(keep.length - 1) - 48;
    const up = rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || last % 2 === 1));
    if (up) {
      const d = keep.split("");
      let i = d.length - 1;
      while (i >= 0 && d[i] === "9") { d[i] = "0"; i--; }
      if (i < 0) d.unshift("1"); else d[i] = String.fromCharCode(d[i].charCodeAt(0) + 1);
      keep = d.join("");
    }
    const int = keep.slice(0, keep.length - digits);
    const frac = keep.slice(keep.length - digits);
    return (neg ? "-" : "") + int + (digits > 0 ? "." + frac : "");
  }

  function fixed(x, digits) { return decimal(x, digits); }
  function ratioX(x, digits) { return decimal(x, digits === undefined ? 3 : digits) + "x"; }

  // One run and tensor, {group: {selector: share}}, laid out per group and selector: the share, its text as
  // results.md prints it, and the share over the keep fraction; a selector the run lacks is "n/a".
  function table(values, keep, selectors) {
    const out = {};
    Object.keys(values).forEach(function (g) {
      const row = {};
      selectors.forEach(function (s) {
        const v = values[g][s];
        row[s] = v === undefined || v === null
          ? { share: null, text: "n/a", vs_keep: null, vs_keep_text: "n/a" }
          : { share: v, text: fixed(v, 3), vs_keep: v / keep, vs_keep_text: ratioX(v / keep, 1) };
      });
      out[g] = row;
    });
    return out;
  }

  root.Ports = root.Ports || {};
  root.Ports.capturedEnergy = { fixed: fixed, ratioX: ratioX, table: table };
})(typeof window !== "undefined" ? window : globalThis);
