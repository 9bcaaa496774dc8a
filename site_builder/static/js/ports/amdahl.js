// Port of the training-step ledger, shares and mask budget of the analysis model
// (site_builder/models/analysis: ledger.step_ledger, step.step_shares, step.amdahl,
// masks.weight_mask_values and the layer-major frames of masks.mask_budget; ops.bins, ops.padded_length)
// and of the site_builder/fmt.py functions the explorer prints with. Pure functions, no DOM; checked
// against data/explorers/amdahl.json in Chromium.
//
// FLOP counts are exact integers in the model; a whole step exceeds 2^53, so they are summed here as
// BigInt and divided with correct rounding, as Python's int / int is (Ports.num.divide).
(function (root) {
  "use strict";

  const CLASSES = ["dense", "attention", "transform", "spectral_w", "spectral_d", "other"];

  // The number formats of site_builder/fmt.py, ported once (ports/fmt.js, loaded first).
  const { fixed, grouped, integer, pct, ratioX, unit } = root.Ports.fmt;

  // ------------------------------------------------------------------------------------ arithmetic
  // Python's int / int, correctly rounded for quotients of any size (ports/num.js, loaded first).
  const divide = root.Ports.num.divide;

  // step._ratio: num / den, or 0 when den is 0.
  function ratio(num, den) { return den === 0n ? 0 : divide(num, den); }

  // step.amdahl: the speed-up bound if a share of the work became free.
  function amdahl(share) {
    if (!(share >= 0 && share < 1)) throw new RangeError("share must be in [0, 1), found " + share);
    return 1 / (1 - share);
  }

  // ops.padded_length: the smallest power of two >= 2L.
  function paddedLength(length) {
    if (!(length >= 1)) throw new RangeError("sequence length must be positive, found " + length);
    let n = 1;
    while (n < 2 * length) n *= 2;
    return n;
  }

  // ops.bins: frequency bins of a real length-n transform.
  function bins(n) { return Math.floor(n / 2) + 1; }

  // ------------------------------------------------------------------------------------ the ledger
  function big(ops) {
    const out = {};
    CLASSES.forEach(function (c) { out[c] = BigInt(ops[c]); });
    return out;
  }

  function scaledPlus(perSeq, k, once) {
    const out = {};
    CLASSES.forEach(function (c) { out[c] = perSeq[c] * k + once[c]; });
    return out;
  }

  function plus(a, b) {
    const out = {};
    CLASSES.forEach(function (c) { out[c] = a[c] + b[c]; });
    return out;
  }

  function total(o) { return o.dense + o.attention + o.transform + o.spectral_w + o.spectral_d + o.other; }
  function optical(o) { return o.transform + o.spectral_w + o.spectral_d; }
  function staticOps(o) { return o.transform + o.spectral_w; }

  // ledger.step_ledger: forward and backward of a step of stepTokens tokens in sequences of length,
  // as BigInt op classes. entry: {per_sequence: {forward, backward}, once_per_step: {forward, backward}}.
  function stepLedger(entry, length, stepTokens) {
    if (!(stepTokens > 0) || stepTokens % length !== 0) {
      throw new RangeError("step of " + stepTokens + " tokens is not a whole number of " + length +
        "-token sequences");
    }
    const seqs = stepTokens / length;
    const k = BigInt(seqs);
    const forward = scaledPlus(big(entry.per_sequence.forward), k, big(entry.once_per_step.forward));
    const backward = scaledPlus(big(entry.per_sequence.backward), k, big(entry.once_per_step.backward));
    return { sequences: seqs, forward: forward, backward: backward, step: plus(forward, backward) };
  }

  // masks.weight_mask_values: complex mask values of every weight spectrum, for one pass.
  // Exact in BigInt (a long enough sequence passes 2**53), given back as the nearest double, float() of
  // Python's int.
  function weightMaskValues(config, entry, length) {
    const hyenaLayers = BigInt(entry.hyena_layers);
    const fft = BigInt(paddedLength(length)); // a power of two, exact as a double
    let values = hyenaLayers * BigInt(config.hyena_order) * BigInt(config.d_model) * (fft / 2n + 1n);
    const k = entry.circ_block;
    if (k) {
      let perLayer = 0n;
      config.circ_matrices.forEach(function (mn) {
        perLayer += BigInt(Math.floor(mn[0] / k)) * BigInt(Math.floor(mn[1] / k)) * BigInt(bins(k));
      });
      values += hyenaLayers * perLayer;
    }
    return Number(values);
  }

  // masks.mask_budget, layer-major: frames per pass, ceil(values / (modelParallel x pixels)).
  function framesPerPass(values, pixels, modelParallel) {
    const mp = modelParallel === undefined ? 1 : modelParallel;
    return values ? Math.ceil(values / (mp * pixels)) : 0;
  }

  // masks.mask_budget: the digital step, step FLOPs / (gpus x TFLOP/s).
  function digitalSeconds(stepFlops, gpus, tflops) {
    return Number(BigInt(stepFlops)) / (gpus * tflops * 1e12);
  }

  function barsOf(o) {
    return {
      digital: Number(o.dense + o.attention + o.other),
      transform: Number(o.transform),
      weight_masked: Number(o.spectral_w),
      data_by_data: Number(o.spectral_d),
    };
  }

  // Everything the explorer shows for one setting: step.step_shares and the layer-major mask budget on
  // one engine (model-parallel degree 1) at the config's device and cluster, raw and printed.
  function view(config, entry, length, stepTokens) {
    const led = stepLedger(entry, length, stepTokens);
    const f = led.forward, b = led.backward, s = led.step;
    const sTotal = total(s);
    const share = ratio(optical(s), sTotal);
    const stat = ratio(staticOps(s), sTotal);
    const r = {
      sequences: led.sequences,
      forward: ratio(optical(f), total(f)),
      backward: ratio(optical(b), total(b)),
      step: share,
      static: stat,
      data_part: ratio(s.spectral_d, optical(s)),
      bound_optical: amdahl(share),
      bound_static: amdahl(stat),
      backward_over_forward: divide(total(b), total(f)),
      step_flops: Number(sTotal),
      step_flops_per_token: divide(sTotal, BigInt(stepTokens)),
    };
    const values = weightMaskValues(config, entry, length);
    const frames = framesPerPass(values, config.pixels, 1);
    r.weight_values = values;
    r.frames_forward = frames;
    r.frames_backward = frames;
    r.weight_seconds = (frames + frames) / config.frame_rate_hz;
    r.digital_seconds = digitalSeconds(sTotal, config.gpus, config.tflops);
    r.mask_over_step = r.weight_seconds / r.digital_seconds;
    r.bars = { forward: barsOf(f), backward: barsOf(b), step: barsOf(s) };
    r.text = {
      step_tokens: integer(stepTokens),
      sequences: integer(r.sequences),
      forward: pct(r.forward),
      backward: pct(r.backward),
      step: pct(r.step),
      static: pct(r.static),
      data_part: pct(r.data_part),
      bound_optical: ratioX(r.bound_optical),
      bound_static: ratioX(r.bound_static),
      backward_over_forward: ratioX(r.backward_over_forward),
      step_gflop_per_token: fixed(r.step_flops_per_token / 1e9, 4),
      weight_values: integer(values),
      frames_forward: integer(frames),
      frames_backward: integer(frames),
      weight_seconds: unit(r.weight_seconds, 2, "s"),
      digital_seconds: unit(r.digital_seconds, 2, "s"),
      mask_over_step: ratioX(r.mask_over_step, 2),
    };
    return r;
  }

  root.Ports = root.Ports || {};
  root.Ports.amdahl = {
    divide: divide,
    amdahl: amdahl,
    paddedLength: paddedLength,
    bins: bins,
    stepLedger: stepLedger,
    weightMaskValues: weightMaskValues,
    framesPerPass: framesPerPass,
    digitalSeconds: digitalSeconds,
    view: view,
    fixed: fixed,
    grouped: grouped,
    integer: integer,
    pct: pct,
    ratioX: ratioX,
    unit: unit,
  };
})(typeof window !== "undefined" ? window : globalThis);
