// Port of the simulation's closed form (site_builder/models/simulation/closed_form.py: build_plan,
// energy_per_step, hot_spots, time to target; collectives.py: the rounds; module.py: the stage rates) and of the
// step's split in site_builder/explorers/transit.py (breakdown), printed with the number formats of
// site_builder/fmt.py (ports/fmt.js). Pure functions, no DOM; checked against data/explorers/transit.json in Chromium
// (raw values to 1e-12 relative, printed values character for character). Every sum is taken in the order
// the Python takes it, so the doubles are the same.
(function (root) {
  "use strict";

  // ---------------------------------------------------------------------------------------- formats
  // The number formats of site_builder/fmt.py, ported once (ports/fmt.js, loaded first).
  const { fixed, grouped, pct, unit } = root.Ports.fmt;

  // ---------------------------------------------------------------------------------------- collectives
  const STAGES = ["port", "optics", "compute", "fpga"];
  const HOT = ["GPU compute", "intra-DC link", "module port", "module optics", "module compute", "module FPGA",
    "inter-DC link"];
  const PARTS = ["compute", "module", "latency", "intra", "wan"];

  function hotSlug(r) { return r.replace(/ /g, "_").replace(/-/g, "_").toLowerCase(); }

  function round(scope, link, perSender, senders, kw) {
    const o = kw || {};
    const r = {
      scope: scope, link: link, per_sender: perSender, senders: senders,
      sharing: o.sharing === undefined ? 1 : o.sharing,
      port_rate: o.port_rate === undefined ? null : o.port_rate,
      by_worker: o.by_worker === undefined ? true : o.by_worker,
      end_hops: o.end_hops || 0,
      port_first: !!o.port_first,
      port_latency: o.port_latency || 0,
    };
    r.link_time = r.sharing * r.per_sender / link.bandwidth;
    r.port_time = r.port_rate === null ? 0 : r.per_sender / r.port_rate;
    r.time = r.port_first
      ? r.port_latency + r.port_time + link.latency + r.link_time
      : link.latency + Math.max(r.link_time, r.port_time);
    r.binding = r.port_time > r.link_time ? "module port" : (scope === "wan" ? "inter-DC link" : "intra-DC link");
    return r;
  }

  function ring(scope, link, chunk, rounds, senders, kw) {
    const out = [];
    for (let i = 0; i < rounds; i++) out.push(round(scope, link, chunk, senders, kw));
    return out;
  }

  function allreduce(t, nbytes) {
    const w = t.per_dc, d = t.dcs;
    if (d === 1) return ring("intra", t.intra, nbytes / w, 2 * (w - 1), t.workers);
    const wanKw = { sharing: w, end_hops: 2 };
    if (w === 1) return ring("wan", t.wan, nbytes / d, 2 * (d - 1), t.workers, wanKw);
    return ring("intra", t.intra, nbytes / w, w - 1, t.workers)
      .concat(ring("wan", t.wan, nbytes / w / d, 2 * (d - 1), t.workers, wanKw))
      .concat(ring("intra", t.intra, nbytes / w, w - 1, t.workers));
  }

  function allgather(t, payload, portRate) {
    const w = t.per_dc, d = t.dcs;
    const kw = { port_rate: portRate };
    if (d === 1) return ring("intra", t.intra, payload, w - 1, t.workers, kw);
    const wanKw = { sharing: w, end_hops: 2, port_rate: portRate };
    if (w === 1) return ring("wan", t.wan, payload, d - 1, t.workers, wanKw);
    return ring("intra", t.intra, payload, w - 1, t.workers, kw)
      .concat(ring("wan", t.wan, payload, d - 1, t.workers, wanKw))
      .concat(ring("intra", t.intra, (d - 1) * payload, w - 1, t.workers, kw));
  }

  function switchUp(t, deltaBytes) { return [round("intra", t.intra, deltaBytes, t.workers)]; }

  function switchSum(t, bandBytes, portRate, moduleLatency) {
    let out = [];
    const d = t.dcs;
    if (d > 1) out = ring("wan", t.wan, bandBytes / d, 2 * (d - 1), d, { by_worker: false });
    out.push(round("intra", t.intra, bandBytes, t.workers, {
      port_rate: portRate, by_worker: false, end_hops: 1, port_first: true, port_latency: moduleLatency,
    }));
    return out;
  }

  // ---------------------------------------------------------------------------------------- the module
  function stageRates(model, budget) {
    const m = model.module;
    const flops = budget === null || budget === undefined ? null : m.budgets[budget];
    return {
      port: m.port_bytes_per_s / model.value_bytes,
      optics: m.optics_values_per_s,
      compute: flops === null ? Infinity : flops / m.flops_per_value,
      fpga: m.fpga_values_per_s,
    };
  }

  // The slowest stage and its rate; ties go to the earlier stage.
  function bindingStage(model, budget) {
    const rates = stageRates(model, budget);
    let name = STAGES[0];
    STAGES.forEach(function (s) { if (rates[s] < rates[name]) name = s; });
    return [name, rates[name]];
  }

  // ---------------------------------------------------------------------------------------- the plan
  function topology(model, dcs, perDc, wan) {
    const intra = model.links[model.intra];
    return { dcs: dcs, per_dc: perDc, workers: dcs * perDc, intra: intra, wan: dcs > 1 && wan ? model.links[wan] : null };
  }

  function phase(kind, time, resource, r) { return { kind: kind, time: time, resource: resource, round: r || null }; }

  // closed_form.build_plan
  function buildPlan(model, variant, topo, budget) {
    const v = model.variants[variant];
    if (!v) throw new RangeError("unknown variant " + variant);
    if (topo.dcs > 1 && !topo.wan) throw new RangeError("a topology of " + topo.dcs + " data centres needs a WAN link");
    const n = model.n_params;
    const dev = model.device;
    let flops = 6.0 * n * model.tokens_per_worker;
    if (v.gpu_transform !== null) flops += model.gpu_transform_flops_per_value[v.gpu_transform] * n;
    const phases = [phase("compute", flops / (dev.peak_flops * dev.mfu), "GPU compute")];
    const payload = v.collective === "allreduce-dense"
      ? model.value_bytes * n
      : model.configs[v.steps_from].payload_bytes * (n / model.n_params);
    const m = model.module;
    const hasModule = v.module !== null;
    const b = hasModule ? (budget === null || budget === undefined ? "free" : budget) : null;
    const port = hasModule ? m.port_bytes_per_s : null;
    let modPhase = [];
    let stage = null;
    if (hasModule) {
      const bs = bindingStage(model, b);
      stage = bs[0];
      modPhase = [phase("module", m.latency_s + n / bs[1], "module " + stage)];
    }
    const asPhases = function (rounds) { return rounds.map(function (r) { return phase("round", r.time, r.binding, r); }); };
    let rest;
    if (v.collective === "allreduce-dense" || v.collective === "allreduce-band") {
      rest = asPhases(allreduce(topo, payload));
    } else if (v.collective === "allgather") {
      rest = modPhase.concat(asPhases(allgather(topo, payload, port)));
    } else if (v.collective === "switch-sum") {
      rest = asPhases(switchUp(topo, model.value_bytes * n)).concat(modPhase)
        .concat(asPhases(switchSum(topo, payload, port, m.latency_s)));
    } else {
      throw new RangeError("unknown collective " + v.collective);
    }
    const all = phases.concat(rest);
    return {
      phases: all,
      time: all.reduce(function (s, p) { return s + p.time; }, 0),
      compute_flops: flops,
      modules: hasModule ? topo.workers : 0,
      module_values: hasModule ? n : 0,
      module_power: hasModule ? m.static_w + m.laser_w : 0,
      budget: b,
      binding: stage,
      topo: topo,
    };
  }

  // closed_form.energy_per_step
  function energy(model, plan) {
    const dev = model.device;
    const topo = plan.topo;
    const t = plan.time;
    const compute = topo.workers * (dev.idle_w * t + dev.pj_per_flop * 1e-12 * plan.compute_flops);
    let link = 0.0;
    plan.phases.forEach(function (p) {
      const r = p.round;
      if (!r) return;
      const bits = 8.0 * r.senders * r.per_sender;
      link += bits * (r.link.pj_per_bit + r.end_hops * topo.intra.pj_per_bit) * 1e-12;
    });
    let module = 0.0;
    if (plan.modules) {
      const bits = 8.0 * model.value_bytes * plan.module_values;
      module = plan.modules * (plan.module_power * t + model.module.pj_per_bit * 1e-12 * bits);
    }
    return { compute: compute, link: link, module: module, total: compute + link + module };
  }

  // closed_form.hot_spots, every §6 column (0 where the step has none of it)
  function hotSpots(plan) {
    const acc = {};
    plan.phases.forEach(function (p) { acc[p.resource] = (acc[p.resource] || 0.0) + p.time / plan.time; });
    const out = {};
    HOT.forEach(function (r) { out[hotSlug(r)] = acc[r] || 0.0; });
    return out;
  }

  // explorers/transit.py breakdown
  function breakdown(model, plan) {
    const parts = { compute: 0.0, module: 0.0, latency: 0.0, intra: 0.0, wan: 0.0 };
    plan.phases.forEach(function (p) {
      const r = p.round;
      if (p.kind === "compute") {
        parts.compute += p.time;
      } else if (p.kind === "module") {
        parts.latency += model.module.latency_s;
        parts.module += plan.module_values / bindingStage(model, plan.budget)[1];
      } else if (r && r.port_first) {
        parts.latency += r.port_latency + r.link.latency;
        parts.intra += r.port_time + r.link_time;
      } else if (r) {
        parts.latency += r.link.latency;
        parts[r.scope === "wan" ? "wan" : "intra"] += Math.max(r.link_time, r.port_time);
      }
    });
    return parts;
  }

  function stepsTo(model, variant, target) {
    const steps = model.configs[model.variants[variant].steps_from].steps[target];
    return steps === undefined ? null : steps;
  }

  // Everything the explorer shows for one choice {variant, budget, dcs, per_dc, wan, target}.
  function outputs(model, c) {
    const topo = topology(model, c.dcs, c.per_dc, c.wan);
    const plan = buildPlan(model, c.variant, topo, c.budget);
    const steps = stepsTo(model, c.variant, c.target);
    const step = plan.time;
    const time = steps === null ? null : steps * step;
    const e = energy(model, plan);
    const toTarget = steps === null ? null : e.total * steps;
    const hot = hotSpots(plan);
    const parts = breakdown(model, plan);
    const text = {
      steps: steps === null ? "not reached" : grouped(steps, 0),
      time: time === null ? "not reached" : unit(time, 2, "s"),
      step_ms: unit(step * 1e3, 3, "ms"),
      e_compute: fixed(e.compute, 3),
      e_link: fixed(e.link, 4),
      e_module: fixed(e.module, 3),
      e_total: fixed(e.total, 3),
      module_share: e.module ? pct(e.module / e.total, 1) : "none",
      e_target: toTarget === null ? "not reached" : unit(toTarget / 1e3, 2, "kJ"),
      binding: plan.binding || "no module",
    };
    PARTS.forEach(function (k) {
      text["part." + k] = unit(parts[k] * 1e3, 3, "ms");
      text["share." + k] = pct(parts[k] / step, 1);
    });
    Object.keys(hot).forEach(function (k) { text["hot." + k] = hot[k] ? pct(hot[k], 1) : "·"; });
    return {
      step_s: step,
      steps: steps,
      time_s: time,
      energy: e,
      energy_to_target_j: toTarget,
      parts: parts,
      hot_spots: hot,
      text: text,
    };
  }

  function outputsMany(model, choices) { return choices.map(function (c) { return outputs(model, c); }); }

  root.Ports = root.Ports || {};
  root.Ports.transit = {
    fixed: fixed,
    grouped: grouped,
    pct: pct,
    unit: unit,
    stageRates: stageRates,
    bindingStage: bindingStage,
    topology: topology,
    buildPlan: buildPlan,
    energy: energy,
    hotSpots: hotSpots,
    breakdown: breakdown,
    outputs: outputs,
    outputsMany: outputsMany,
  };
})(typeof window !== "undefined" ? window : globalThis);
