// Port of the experiment model's seed statistics (site_builder/models/experiment.py: seed_band,
// seed_mean). Pure functions, no DOM; checked against data/explorers/loss_curves.json in Chromium.
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

  root.Ports = root.Ports || {};
  root.Ports.lossCurves = { fsum: fsum, band: band, wireGB: wireGB };
})(typeof window !== "undefined" ? window : globalThis);
