// Port of the experiment model's seed statistics (site_builder/models/experiment.py: seed_band, seed_mean,
// Steps), of results.md §4's steps text (site_builder/results/experiment.py: steps_text), of where a mark of
// the steps ladder sits on the wire axis (site_builder/explorers/loss_curves.py: wire_at) and of the format
// §4 prints steps with (site_builder/fmt.py: grouped). Pure functions, no DOM; checked against
// data/explorers/loss_curves.json in Chromium.
(function (root) {
  "use strict";

  // math.fsum, statistics.fmean and fmt.py's grouped, ported once (ports/num.js and ports/fmt.js, loaded first).
  const fsum = root.Ports.num.fsum;
  const mean = root.Ports.num.fmean;
  const grouped = root.Ports.fmt.grouped;

  // zip(*perSeed, strict=True): the columns, none for no seeds; seeds of different lengths throw.
  function columns(perSeed) {
    if (perSeed.length === 0) return [];
    const n = perSeed[0].length;
    perSeed.forEach(function (s) {
      if (s.length !== n) throw new RangeError("ValueError: zip() arguments differ in length");
    });
    const out = [];
    for (let i = 0; i < n; i++) out.push(perSeed.map(function (s) { return s[i]; }));
    return out;
  }

  // Python's min and max: the first value no other is below (above), by < and > alone (so -0 and 0 keep their
  // order, and a NaN first stays).
  function lowest(c) {
    let best = c[0];
    for (let i = 1; i < c.length; i++) if (c[i] < best) best = c[i];
    return best;
  }

  function highest(c) {
    let best = c[0];
    for (let i = 1; i < c.length; i++) if (c[i] > best) best = c[i];
    return best;
  }

  // experiment.seed_band: pointwise mean, lowest and highest over seeds.
  function band(perSeed) {
    const cols = columns(perSeed);
    return { mean: cols.map(mean), low: cols.map(lowest), high: cols.map(highest) };
  }

  // Cumulative wire bytes per worker, mean over seeds, in GB.
  function wireGB(perSeed) {
    return columns(perSeed).map(function (c) { return mean(c) / 1e9; });
  }

  // Steps to a target from each seed's first evaluation at or below it (null: that seed never got there): how
  // many seeds reached it, their mean when all did, and the text of results.md §4.
  function stepsTo(perSeed) {
    const reached = perSeed.filter(function (s) { return s !== null; });
    const m = reached.length < perSeed.length ? null : mean(reached); // no seeds at all throws, as fmean
    return {
      reached: reached.length,
      seeds: perSeed.length,
      mean: m,
      text: m === null ? "not reached (" + reached.length + "/" + perSeed.length + ")" : grouped(m, 0),
    };
  }

  // The wire axis at a step: on the straight line between the evaluations around it (from the origin before
  // the first), as the cumulative wire bytes grow by the same amount every step.
  function wireAt(steps, wire, step) {
    let s0 = 0, w0 = 0;
    const n = Math.min(steps.length, wire.length);
    for (let i = 0; i < n; i++) {
      const s1 = steps[i], w1 = wire[i];
      if (step === s1) return w1;
      if (step < s1) return w0 + (w1 - w0) * (step - s0) / (s1 - s0);
      s0 = s1; w0 = w1;
    }
    if (steps.length !== wire.length) throw new RangeError("ValueError: zip() arguments differ in length");
    throw new RangeError("ValueError: step " + step + " is after the last evaluation, " + s0);
  }

  root.Ports = root.Ports || {};
  root.Ports.lossCurves = { fsum: fsum, band: band, wireGB: wireGB, grouped: grouped, stepsTo: stepsTo, wireAt: wireAt };
})(typeof window !== "undefined" ? window : globalThis);
