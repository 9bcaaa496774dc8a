// Port of the experiment model's seed statistics (site_builder/models/experiment.py: seed_band, seed_mean,
// Steps), of results.md §4's steps text (site_builder/results/experiment.py: steps_text), of where a mark of
// the steps ladder sits on the wire axis (site_builder/explorers/loss_curves.py: wire_at) and of the format
// §4 prints steps with (site_builder/fmt.py: grouped). Pure functions, no DOM; checked against
// data/explorers/loss_curves.json in Chromium.
(function (root) {
  "use strict";

  // math.fsum and fmt.py's grouped, ported once (ports/num.js and ports/fmt.js, loaded first).
  const fsum = root.Ports.num.fsum;
  const grouped = root.Ports.fmt.grouped;

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
