// Port of the simulation's step at another WAN bandwidth and of its break-evens (site_builder/models/
// simulation/collectives.py: Round.time; closed_form.py: plan_time_at_wan, steps_for; breakeven.py: bisect,
// crossing) and of the number formats the page prints with (site_builder/fmt.py). Pure functions, no DOM;
// checked against data/explorers/breakeven.json in Chromium (raw values to 1e-12 relative, printed values
// character for character).
//
// The model (results.json data.step_phases) gives every row's step on 2 DC × 4 over 100 GbE phase by phase,
// in order: a number for a phase the WAN bandwidth does not touch (compute, the module, the rounds inside a
// data centre), the terms of each WAN round otherwise. Only the WAN rounds are redone at a bandwidth, and
// the phases are summed again in the same order, so a step is the closed form's to the last bit.
(function (root) {
  "use strict";

  // ---------------------------------------------------------------------------------------- formats
  // The number formats of site_builder/fmt.py, ported once (ports/fmt.js, loaded first).
  const { fixed, grouped, unit } = root.Ports.fmt;

  // ---------------------------------------------------------------------------------------- the step
  const VARIANTS = ["A", "B", "C", "Cp", "E", "Ep"];
  const BASIS_LABELS = { e: "E", c: "C (exact)", m: "measured" };
  const MEASURED_PAIRS = [["Cp", "A"], ["Cp", "B"], ["Cp", "C"], ["C", "A"], ["C", "B"], ["B", "A"]];

  // Round.time of a WAN round at bandwidth bw (bytes/s): latency + max(link, port), or, store-and-forward,
  // the module, its port, then the link in series.
  function roundTime(r, bw) {
    const link = r.sharing * r.per_sender / bw;
    const port = r.port_rate === null ? 0 : r.per_sender / r.port_rate;
    if (r.port_first) return r.port_latency + port + r.latency + link;
    return r.latency + Math.max(link, port);
  }

  // plan_time_at_wan: the step with the WAN rounds redone at bw, summed in the closed form's order.
  function stepAt(phases, bw) {
    if (!(bw > 0)) throw new RangeError("the WAN bandwidth must be positive, found " + bw);
    let t = 0;
    for (let i = 0; i < phases.length; i++) {
      const p = phases[i];
      t += typeof p === "number" ? p : roundTime(p, bw);
    }
    return t;
  }

  function isModule(model, v) { return model.module_variants.indexOf(v) >= 0; }

  function rowKey(model, v, budget) { return isModule(model, v) ? v + "." + budget : v; }

  function phasesOf(model, v, budget) {
    const ph = model.phases[rowKey(model, v, budget)];
    if (!ph) throw new RangeError("no step for " + v + " at " + budget);
    return ph;
  }

  // Steps to the target: basis "c" gives the in-transit variants the exact band's steps; ``mean`` the seeds'
  // unrounded mean instead of whole steps.
  function stepsOf(model, v, basis, mean) {
    const s = basis === "c" && isModule(model, v) ? model.exact : model.steps[v];
    if (!s) throw new RangeError("unknown variant " + v);
    return mean ? s.mean : s.whole;
  }

  // Time to the target of v at bandwidth bw: steps x the step.
  function timeAt(model, v, budget, basis, mean, bw) {
    return stepsOf(model, v, basis, mean) * stepAt(phasesOf(model, v, budget), bw);
  }

  function bandwidthAt(position) { return Math.pow(10, position) * 1e9; }

  // ---------------------------------------------------------------------------------------- break-evens
  // breakeven.bisect: a root of f in [lo, hi], halving in log space to a relative tolerance.
  function bisect(f, lo, hi, relTol) {
    let flo = f(lo);
    if (flo === 0) return lo;
    if ((flo < 0) === (f(hi) < 0)) throw new RangeError("f does not change sign on the interval");
    while (hi - lo > relTol * lo) {
      const mid = Math.sqrt(lo * hi);
      const fm = f(mid);
      if (fm === 0) return mid;
      if ((fm < 0) === (flo < 0)) { lo = mid; flo = fm; } else { hi = mid; }
    }
    return Math.sqrt(lo * hi);
  }

  // breakeven.crossing of the challenger's time to the target less the incumbent's over the sweep.
  function crossing(model, ch, inc, basis, budget, mean) {
    const sc = stepsOf(model, ch, basis, mean), si = stepsOf(model, inc, basis, mean);
    const pc = phasesOf(model, ch, budget), pi = phasesOf(model, inc, budget);
    const adv = function (bw) { return sc * stepAt(pc, bw) - si * stepAt(pi, bw); };
    const lo = model.sweep[0], hi = model.sweep[1];
    const aLo = adv(lo), aHi = adv(hi);
    if (aLo < 0 && aHi < 0) return { value: null, wins: "always" };
    if (aLo >= 0 && aHi >= 0) return { value: null, wins: "never" };
    const x = bisect(adv, lo, hi, model.rel_tol);
    return { value: x, wins: aLo < 0 ? "below" : "above" };
  }

  function pairs(basis) {
    const out = [];
    ["Ep", "E"].forEach(function (ch) {
      ["A", "B", "C", "Cp"].forEach(function (inc) { out.push([ch, inc, basis]); });
    });
    MEASURED_PAIRS.forEach(function (p) { out.push([p[0], p[1], "m"]); });
    return out;
  }

  function pairLabel(model, ch, inc, basis, mean) {
    return model.names[ch] + " vs " + model.names[inc] + " (" + basis + (mean ? ", unrounded mean steps)" : ")");
  }

  // The break-evens shown with ``basis`` (its in-transit pairs, then the measured ones), as §7a prints them.
  function crossings(model, basis, budget, mean) {
    return pairs(basis).map(function (p) {
      const c = crossing(model, p[0], p[1], p[2], budget, mean);
      const v = c.value;
      return {
        id: p[0] + "_vs_" + p[1],
        challenger: p[0],
        incumbent: p[1],
        basis: p[2],
        value: v,
        wins: c.wins,
        label: pairLabel(model, p[0], p[1], p[2], mean),
        text: {
          cross: v === null ? c.wins : unit(v / 1e9, 2, "GB/s"),
          gbits: v === null ? "·" : fixed(v * 8 / 1e9, 2),
          wins: c.wins,
          basis: BASIS_LABELS[p[2]],
        },
      };
    });
  }

  // ---------------------------------------------------------------------------------------- outputs
  // Each variant's steps, step and time to the target at state.bandwidth, and the fastest, as printed.
  function outputs(model, state) {
    const bw = state.bandwidth;
    const rows = {};
    const text = { bandwidth: unit(bw / 1e9, 2, "GB/s"), gbits: unit(bw * 8 / 1e9, 2, "Gb/s") };
    let fastest = null;
    VARIANTS.forEach(function (v) {
      const steps = stepsOf(model, v, state.basis, state.mean);
      const step = stepAt(phasesOf(model, v, state.budget), bw);
      const time = steps * step;
      rows[v] = { steps: steps, step_s: step, time_s: time };
      text["steps-" + v] = grouped(steps, state.mean ? 2 : 0);
      text["step-" + v] = unit(step * 1e3, 3, "ms");
      text["time-" + v] = unit(time, 2, "s");
      if (fastest === null || time < rows[fastest].time_s) fastest = v;
    });
    text.fastest = model.names[fastest];
    return { bandwidth: bw, rows: rows, fastest: fastest, text: text };
  }

  // n points of v's time to the target, evenly spaced in log bandwidth over the sweep.
  function curve(model, v, budget, basis, mean, n) {
    const a = Math.log10(model.sweep[0]), b = Math.log10(model.sweep[1]);
    const steps = stepsOf(model, v, basis, mean);
    const ph = phasesOf(model, v, budget);
    const x = [], y = [];
    for (let i = 0; i < n; i++) {
      const bw = Math.pow(10, a + i * (b - a) / (n - 1));
      x.push(bw);
      y.push(steps * stepAt(ph, bw));
    }
    return { x: x, y: y };
  }

  root.Ports = root.Ports || {};
  root.Ports.breakeven = {
    VARIANTS: VARIANTS,
    fixed: fixed,
    grouped: grouped,
    unit: unit,
    roundTime: roundTime,
    stepAt: stepAt,
    stepsOf: stepsOf,
    timeAt: timeAt,
    bandwidthAt: bandwidthAt,
    bisect: bisect,
    crossing: crossing,
    crossings: crossings,
    outputs: outputs,
    curve: curve,
  };
})(typeof window !== "undefined" ? window : globalThis);
