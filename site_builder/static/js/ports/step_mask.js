// Port of the analysis model's mask budget (site_builder/models/analysis/masks.py: mask_budget,
// engine_step) and of the number formats it is printed with (site_builder/fmt.py). Pure functions, no
// DOM; checked against data/explorers/step_mask.json in Chromium (raw values to 1e-12 relative, printed
// values character for character).
//
// The ledger enters as exact integer terms (results.json data.masks.terms): at a step of q sequences the
// step's FLOPs are per_sequence x q + per_step. Those products pass 2**53, so they are formed as BigInt
// and every integer-over-integer quotient is rounded once, as Python's int / int is (Ports.num.divide).
(function (root) {
  "use strict";

  const SCHEDULES = ["layer-major", "sequence-major"];

  // Python's int / int, correctly rounded for quotients of any size (ports/num.js, loaded first).
  const ratio = root.Ports.num.divide;

  function big(n) {
    if (!Number.isSafeInteger(n)) throw new RangeError("expected an exact integer, found " + n);
    return BigInt(n);
  }

  // ---------------------------------------------------------------------------------------- formats
  // The number formats of site_builder/fmt.py, ported once (ports/fmt.js, loaded first).
  const { fixed, grouped, integer, pct, ratioX, unit } = root.Ports.fmt;

  // ---------------------------------------------------------------------------------------- the model
  // mask_budget(variant, length, **settings), with the ledger's part given by ``terms``.
  function budget(terms, s) {
    const schedule = s.schedule;
    if (SCHEDULES.indexOf(schedule) < 0) {
      throw new RangeError("schedule must be one of " + SCHEDULES.join(", ") + ", found " + schedule);
    }
    if (Math.min(s.gpus, s.pixels, s.model_parallel, s.microbatch) < 1 || s.tflops <= 0 || s.frame_rate_hz <= 0) {
      throw new RangeError("gpus, pixels, model_parallel, microbatch, tflops and frame_rate_hz must be positive");
    }
    if (s.gpus % s.model_parallel) {
      throw new RangeError("model-parallel degree " + s.model_parallel + " does not divide " + s.gpus + " GPUs");
    }
    const length = terms.length;
    if (s.step_tokens <= 0 || s.step_tokens % length) {
      throw new RangeError("step of " + s.step_tokens + " tokens is not a whole number of " + length + "-token sequences");
    }
    const sequences = s.step_tokens / length;
    const q = big(sequences);
    const total = big(terms.step_flops_per_sequence) * q + big(terms.step_flops_per_step);
    const staticFlops = big(terms.static_flops_per_sequence) * q + big(terms.static_flops_per_step);
    const staticShare = total === 0n ? 0 : ratio(staticFlops, total);
    const replicas = Math.floor(s.gpus / s.model_parallel);
    const passes = schedule === "layer-major" ? 1 : Math.ceil(Math.ceil(sequences / replicas) / s.microbatch);
    const values = terms.weight_values;
    const framesPerPass = values ? Math.ceil(ratio(big(values), big(s.model_parallel * s.pixels))) : 0;
    const fwdFrames = Number(BigInt(passes) * BigInt(framesPerPass)); // float() of Python's exact product
    const bwdFrames = fwdFrames;
    const maskS = (fwdFrames + bwdFrames) / s.frame_rate_hz;
    const stepFlops = Number(total);
    const digital = stepFlops / (s.gpus * s.tflops * 1e12);
    const removable = staticShare * digital;
    const dataValues = Number(big(terms.data_values_per_sequence) * q);
    const dataFrames = ratio(big(terms.data_values_per_sequence) * q, big(s.pixels));
    const dataS = dataFrames / s.frame_rate_hz;
    return {
      variant: terms.variant,
      length: length,
      step_tokens: s.step_tokens,
      gpus: s.gpus,
      tflops: s.tflops,
      pixels: s.pixels,
      frame_rate_hz: s.frame_rate_hz,
      model_parallel: s.model_parallel,
      schedule: schedule,
      microbatch: s.microbatch,
      sequences: sequences,
      replicas: replicas,
      passes: passes,
      weight_values: values,
      frames_per_pass: framesPerPass,
      forward_frames: fwdFrames,
      backward_frames: bwdFrames,
      forward_seconds: fwdFrames / s.frame_rate_hz,
      backward_seconds: bwdFrames / s.frame_rate_hz,
      weight_seconds: maskS,
      step_flops: stepFlops,
      digital_seconds: digital,
      static_share: staticShare,
      removable_seconds: removable,
      step_serial_seconds: digital - removable + maskS,
      step_overlapped_seconds: Math.max(digital - removable, maskS),
      mask_over_step: maskS / digital,
      data_values: dataValues,
      data_frames: dataFrames,
      data_seconds: dataS,
      data_seconds_per_engine: dataS / s.gpus,
    };
  }

  // engine_step(budget, overlapped, data_on_engines); ``terms`` gives the optical share.
  function engineStep(b, terms, overlapped, dataOnEngines) {
    let share, removable, masks;
    if (dataOnEngines) {
      const q = big(b.sequences);
      const total = big(terms.step_flops_per_sequence) * q + big(terms.step_flops_per_step);
      const optical = big(terms.optical_flops_per_sequence) * q + big(terms.optical_flops_per_step);
      share = total === 0n ? 0 : ratio(optical, total);
      removable = share * b.digital_seconds;
      masks = b.weight_seconds + b.data_seconds_per_engine;
    } else {
      share = b.static_share;
      removable = b.removable_seconds;
      masks = b.weight_seconds;
    }
    const remaining = b.digital_seconds - removable;
    const step = overlapped ? Math.max(remaining, masks) : remaining + masks;
    return {
      overlapped: overlapped,
      data_on_engines: dataOnEngines,
      digital_seconds: b.digital_seconds,
      share: share,
      removable_seconds: removable,
      remaining_seconds: remaining,
      mask_seconds: masks,
      hidden_seconds: overlapped ? Math.min(remaining, masks) : 0,
      step_seconds: step,
      speedup: b.digital_seconds / step,
    };
  }

  // Everything the explorer prints, formatted as results.md §4 prints it.
  function texts(b, serial, overlappedStep, chosen, relative) {
    const secs = function (x, d) { return unit(x, d, "s"); };
    return {
      weight_values: integer(b.weight_values),
      forward_frames: integer(BigInt(b.passes) * BigInt(b.frames_per_pass)), // exact past 2**53 too
      backward_frames: integer(BigInt(b.passes) * BigInt(b.frames_per_pass)),
      passes: integer(b.passes),
      frames_per_pass: integer(b.frames_per_pass),
      sequences: integer(b.sequences),
      replicas: integer(b.replicas),
      weight_seconds: secs(b.weight_seconds, 2),
      mask_time: secs(b.weight_seconds, 3),
      relative: ratioX(relative, 2),
      digital_seconds: secs(b.digital_seconds, 2),
      mask_over_step: ratioX(b.mask_over_step, 2),
      data_seconds: secs(b.data_seconds, 0),
      data_seconds_per_engine: secs(b.data_seconds_per_engine, 2),
      share: pct(chosen.share),
      removable_seconds: secs(chosen.removable_seconds, 4),
      step_serial_seconds: secs(serial.step_seconds, 2),
      step_overlapped_seconds: secs(overlappedStep.step_seconds, 2),
      step_seconds: secs(chosen.step_seconds, 2),
      speedup: ratioX(chosen.speedup, 3),
    };
  }

  // The explorer's whole state: the budget, the step with the engine both ways, the mask time against
  // layer-major order on one engine per GPU, and the printed values.
  function outputs(terms, settings, overlapped, dataOnEngines) {
    const b = budget(terms, settings);
    const base = budget(terms, Object.assign({}, settings, { schedule: "layer-major", model_parallel: 1, microbatch: 1 }));
    const serial = engineStep(b, terms, false, dataOnEngines);
    const over = engineStep(b, terms, true, dataOnEngines);
    const relative = base.weight_seconds ? b.weight_seconds / base.weight_seconds : 0;
    const chosen = overlapped ? over : serial;
    return {
      budget: b,
      serial: serial,
      overlapped: over,
      relative: relative,
      text: texts(b, serial, over, chosen, relative),
    };
  }

  root.Ports = root.Ports || {};
  root.Ports.stepMask = {
    ratio: ratio,
    fixed: fixed,
    grouped: grouped,
    integer: integer,
    pct: pct,
    ratioX: ratioX,
    unit: unit,
    budget: budget,
    engineStep: engineStep,
    outputs: outputs,
  };
})(typeof window !== "undefined" ? window : globalThis);
