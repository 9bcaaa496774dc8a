// Port of the experiment model's seed statistics (site_builder/models/experiment.py: seed_band, seed_mean,
// Steps), of results.md §4's steps text (site_builder/results/experiment.py: steps_text), of where a mark of
// the steps ladder sits on the wire axis (site_builder/explorers/loss_curves.py: wire_at) and of the format
// §4 prints steps with (site_builder/fmt.py: grouped). Pure functions, no DOM; checked against
// data/explorers/loss_curves.json in Chromium.
(function (root) {
  "use strict";

  // Exactly rounded sum (Shewchuk's partials, the algorithm of Python's math.fsum), so that the
  // mean equals statistics.fmean to the last bit whatever the order of the values.
  function fsum(values) {
    const partials = [];
    for (let x of values) {
      let i = 0;
      for (let y of partials) {
        if (Math.abs(x) < Math.abs(y)) { const t = x; x = y; y = t; }
        const hi = x + y;
        const lo = y - (hi - x);
        if (lo !== 0) partials[i++] = lo;
        x = hi;
      }
      partials.length = i;
      partials.push(x);
    }
    let n = partials.length;
    if (n === 0) return 0;
    let hi = partials[--n];
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = partials[--n];
      hi = x + y;
      const yr = hi - x;
      lo = y - yr;
      if (lo !== 0) break;
    }
    // Round half-even across the remaining partials, as math.fsum does.
    if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
      const y = lo * 2;
      const x = hi + y;
      const yr = x - hi;
      if (y === yr) hi = x;
    }
    return hi;
  }

  function columns(perSeed) {
    const n = perSeed[0].length;
    const out = [];
    for (let i = 0; i < n; i++) out.push(perSeed.map(function (s) { return s[i]; }));
    return out;
  }

  function mean(values) { return fsum(values) / values.length; }

  // Pointwise mean, lowest and highest over seeds.
  function band(perSeed) {
    const cols = columns(perSeed);
    return {
      mean: cols.map(mean),
      low: cols.map(function (c) { return Math.min.apply(null, c); }),
      high: cols.map(function (c) { return Math.max.apply(null, c); }),
    };
  }

  // Cumulative wire bytes per worker, mean over seeds, in GB.
  function wireGB(perSeed) {
    return columns(perSeed).map(function (c) { return mean(c) / 1e9; });
  }

  // Python's f"{x:,.{digits}f}": the exact binary value rounded half to even, thousands separated.
  function grouped(x, digits) {
    if (typeof x !== "number" || !isFinite(x)) throw new RangeError("cannot format non-finite number " + x);
    const d = digits || 0;
    const neg = x < 0 || Object.is(x, -0);
    const a = Math.abs(x);
    if (a >= 1e21) throw new RangeError("number too large to format: " + x);
    const exact = a.toFixed(100); // exact for every double from 2**-48 up; smaller ones are never near a tie
    const dot = exact.indexOf(".");
    let keep = exact.slice(0, dot) + exact.slice(dot + 1, dot + 1 + d);
    const rest = exact.slice(dot + 1 + d);
    const last = keep.charCodeAt(keep.length - 1) - 48;
    if (rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || last % 2 === 1))) {
      const ds = keep.split("");
      let i = ds.length - 1;
      while (i >= 0 && ds[i] === "9") { ds[i] = "0"; i--; }
      if (i < 0) ds.unshift("1"); else ds[i] = String.fromCharCode(ds[i].charCodeAt(0) + 1);
      keep = ds.join("");
    }
    const int = keep.slice(0, keep.length - d);
    let g = "";
    for (let i = 0; i < int.length; i++) {
      if (i > 0 && (int.length - i) % 3 === 0) g += ",";
      g += int[i];
    }
    return (neg ? "-" : "") + g + (d > 0 ? "." + keep.slice(keep.length - d) : "");
  }

  // Steps to a target from each seed's first evaluation at or below it (null: that seed never got there): how
  // many seeds reached it, their mean when all did, and the text of results.md §4.
  function stepsTo(perSeed) {
    const reached = perSeed.filter(function (s) { return s !== null; });
    const mean = reached.length < perSeed.length ? null : fsum(reached) / reached.length;
    return {
      reached: reached.length,
      seeds: perSeed.length,
      mean: mean,
      text: mean === null ? "not reached (" + reached.length + "/" + perSeed.length + ")" : grouped(mean, 0),
    };
  }

  // The wire axis at a step: on the straight line between the evaluations around it (from the origin before
  // the first), as the cumulative wire bytes grow by the same amount every step.
  function wireAt(steps, wire, step) {
    let s0 = 0, w0 = 0;
    for (let i = 0; i < steps.length; i++) {
      const s1 = steps[i], w1 = wire[i];
      if (step === s1) return w1;
      if (step < s1) return w0 + (w1 - w0) * (step - s0) / (s1 - s0);
      s0 = s1; w0 = w1;
    }
    throw new RangeError("step " + step + " is after the last evaluation, " + s0);
  }

  root.Ports = root.Ports || {};
  root.Ports.lossCurves = { fsum: fsum, band: band, wireGB: wireGB, grouped: grouped, stepsTo: stepsTo, wireAt: wireAt };
})(typeof window !== "undefined" ? window : globalThis);
