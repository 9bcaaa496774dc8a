// Port of the simulation's link module and of the step it sits in (site_builder/models/simulation/module.py:
// stage_rates, binding_stage, module_time, budget_stops_binding; closed_form.py: build_plan's sum of phases
// and hot_spots) and of the number formats the page prints with (site_builder/fmt.py). Pure functions, no
// DOM; checked against data/explorers/link_kernel.json in Chromium (raw values to 1e-12 relative, printed
// values character for character).
//
// The model (results.json data) gives the module's spec and the steps of E and E′ at [free] phase by phase,
// in order. A setting changes only the module's phase (its time, and the stage it is charged to); the step
// is summed again in the same order, so it is the closed form's step to the last bit.
(function (root) {
  "use strict";

  const STAGES = ["port", "optics", "compute", "fpga"];
  const VALUE_BYTES = 2;

  // ---------------------------------------------------------------------------------------- formats
  // The number formats of site_builder/fmt.py, ported once (ports/fmt.js, loaded first).
  const { fixed, grouped, integer, pct, unit } = root.Ports.fmt;

  // ---------------------------------------------------------------------------------------- the module
  // ModuleSpec().with_budget(budget) with the planes and the FPGA rate set: a budget is a name of
  // model.budgets ("low", "high", "free"), FLOP/s, or null (not charged).
  function specOf(model, settings) {
    const s = model.spec;
    let budget = settings.budget;
    if (typeof budget === "string") {
      if (!Object.prototype.hasOwnProperty.call(model.budgets, budget)) throw new RangeError("unknown budget " + budget);
      budget = model.budgets[budget];
    }
    if (budget !== null && !(typeof budget === "number" && budget > 0)) throw new RangeError("bad budget " + budget);
    if (!(Number.isInteger(settings.planes) && settings.planes >= 1)) throw new RangeError("planes must be 1 or more");
    if (!(settings.fpga > 0)) throw new RangeError("the FPGA rate must be positive");
    return {
      port_bytes_per_s: s.port_bytes_per_s,
      lanes: s.lanes,
      lane_bits_per_s: s.lane_bits_per_s,
      planes: settings.planes,
      flops_per_value: s.flops_per_value,
      fpga_values_per_s: settings.fpga,
      latency_s: s.latency_s,
      budget_flops: budget,
    };
  }

  // Values per second each stage sustains (Infinity for a compute stage that is not charged).
  function rates(spec) {
    return {
      port: spec.port_bytes_per_s / VALUE_BYTES,
      optics: spec.lanes * spec.lane_bits_per_s / spec.planes,
      compute: spec.budget_flops === null ? Infinity : spec.budget_flops / spec.flops_per_value,
      fpga: spec.fpga_values_per_s,
    };
  }

  // stage_rates as results.json stores it: null where the stage is not charged.
  function stageRates(spec) {
    const r = rates(spec);
    const out = {};
    STAGES.forEach(function (s) { out[s] = r[s] === Infinity ? null : r[s]; });
    return out;
  }

  // The slowest stage and its rate; ties go to the earlier stage.
  function bindingStage(spec) {
    const r = rates(spec);
    let best = STAGES[0];
    STAGES.forEach(function (s) { if (r[s] < r[best]) best = s; });
    return [best, r[best]];
  }

  function moduleTime(spec, nValues) { return spec.latency_s + nValues / bindingStage(spec)[1]; }

  function budgetStopsBinding(spec) {
    const r = rates(spec);
    return spec.flops_per_value * Math.min(r.port, r.optics, r.fpga);
  }

  // ---------------------------------------------------------------------------------------- the step
  // closed_form.module_resource: the hot-spot column a module stage is charged to.
  function moduleResource(stage) { return "module " + (stage === "fpga" ? "FPGA" : stage); }

  // The step's phases with the module's recomputed: [{kind, resource, time}], in the closed form's order.
  function phases(model, variant, spec) {
    const base = model.phases[variant];
    if (!base) throw new RangeError("unknown variant " + variant);
    const stage = bindingStage(spec)[0];
    return base.map(function (p) {
      if (p.kind !== "module") return p;
      return { kind: "module", resource: moduleResource(stage), time: moduleTime(spec, model.n_params) };
    });
  }

  function stepTime(ph) {
    let t = 0;
    for (let i = 0; i < ph.length; i++) t += ph[i].time;
    return t;
  }

  // hot_spots: each resource's share of the step, in order of first appearance.
  function hotSpots(ph) {
    const total = stepTime(ph);
    const out = {};
    ph.forEach(function (p) { out[p.resource] = (out[p.resource] || 0) + p.time / total; });
    return out;
  }

  function slug(resource) { return resource.replace(/ /g, "_").replace(/-/g, "_").toLowerCase(); }

  function budgetLabel(model, budget) {
    if (typeof budget === "string") return model.budget_labels[budget];
    return budget === null ? "transform not charged" : grouped(budget / 1e9, 1) + " GFLOP/s charged";
  }

  // Everything the explorer shows at a setting {variant, budget, planes, fpga}, as results.md prints it.
  function outputs(model, settings) {
    const spec = specOf(model, settings);
    const r = rates(spec);
    const bind = bindingStage(spec);
    const mt = moduleTime(spec, model.n_params);
    const stop = budgetStopsBinding(spec);
    const ph = phases(model, settings.variant, spec);
    const step = stepTime(ph);
    const hs = hotSpots(ph);
    const key = String(settings.planes);
    const steps = Object.prototype.hasOwnProperty.call(model.plane_steps, key) ? model.plane_steps[key] : null;
    const time = steps === null ? null : steps * step;
    const text = {
      rate_port: fixed(r.port / 1e9, 2),
      rate_optics: fixed(r.optics / 1e9, 2),
      rate_compute: r.compute === Infinity ? "not charged" : fixed(r.compute / 1e9, 2),
      rate_fpga: fixed(r.fpga / 1e9, 2),
      binding: bind[0],
      module_time: unit(mt * 1e3, 2, "ms"),
      stops_binding: unit(stop / 1e9, 1, "GFLOP/s"),
      step: unit(step * 1e3, 3, "ms"),
      steps: steps === null ? "no run" : grouped(steps),
      time: time === null ? "no run" : unit(time, 2, "s"),
      budget: budgetLabel(model, settings.budget),
      planes: integer(settings.planes),
      fpga: unit(settings.fpga / 1e9, 0, "G values/s"),
    };
    model.resources.forEach(function (res) {
      const share = hs[res] || 0;
      text["hot_" + slug(res)] = share ? pct(share, 1) : "·";
    });
    return {
      rates: stageRates(spec),
      binding: bind[0],
      binding_rate: bind[1],
      module_s: mt,
      stops_binding: stop,
      step_s: step,
      hot_spots: hs,
      steps: steps,
      time_s: time,
      text: text,
    };
  }

  root.Ports = root.Ports || {};
  root.Ports.linkKernel = {
    STAGES: STAGES,
    fixed: fixed,
    grouped: grouped,
    integer: integer,
    pct: pct,
    unit: unit,
    specOf: specOf,
    stageRates: stageRates,
    bindingStage: bindingStage,
    moduleTime: moduleTime,
    budgetStopsBinding: budgetStopsBinding,
    moduleResource: moduleResource,
    phases: phases,
    stepTime: stepTime,
    hotSpots: hotSpots,
    slug: slug,
    outputs: outputs,
  };
})(typeof window !== "undefined" ? window : globalThis);
