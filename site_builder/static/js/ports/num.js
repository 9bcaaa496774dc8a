// Numerics shared by the explorers' ports (three_trainers, loss_curves): Python's math.fsum. Pure functions on
// window.Ports.num, no DOM; loaded first (Explorer `shared=NUM` in site_builder/explorers/__init__.py) on pages
// with those charts and in the port parity test. Each port that uses them re-exports the ones its parity cases
// check.
(function (root) {
  "use strict";

  // Exactly rounded sum: Shewchuk's partials, the algorithm of Python's math.fsum, so that a mean equals
  // statistics.fmean / math.fsum(...) / n to the last bit whatever the order of the values.
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

  root.Ports = root.Ports || {};
  root.Ports.num = { fsum: fsum };
})(typeof window !== "undefined" ? window : globalThis);
