// Step time against mask time (FOptTrn deck 03). The payload (<script id="data-step_mask">) holds, per
// variant and sequence length, the ledger's exact integer terms and the mask values (analysis results.json
// data.masks.terms) and the defaults of results.md §4; every number drawn or printed is computed live by
// the port (assets/js/ports/step_mask.js), which the tests hold equal to the Python model. No inline
// script or handler: it runs under a strict Content-Security-Policy.
(function () {
  "use strict";
  const NAME = "step_mask";
  if (!window.Charts || !window.Charts.mount) return;
  window.Charts.mount(NAME, { port: "stepMask" }, function (m) {
    const holder = m.holder;
    const port = m.port;
    const data = m.data;
    const d0 = data.defaults;
    const PLOT_CONFIG = { displaylogo: false, responsive: true, displayModeBar: false };
    // Series colours: the site's palette (tests/browser/test_palette.py holds every pair of one chart ΔE 12 apart
    // under simulated deuteranopia, protanopia and tritanopia, in both colour schemes).
    const COLORS = { digital: "#b1b9b0", forward: "#086191", backward: "#59c1ff", data: "#cb560d", exposed: "#ecac00" };
    const LINE = "#444";

    function withDefault(list, value) {
      return list.indexOf(value) >= 0 ? list : list.concat([value]).sort(function (a, b) { return a - b; });
    }
    function powers(lo, hi) {
      const out = [];
      for (let e = lo; e <= hi; e++) out.push(Math.pow(2, e));
      return out;
    }
    const TOKENS = withDefault(powers(15, 24), d0.step_tokens);
    const GPUS = withDefault(powers(0, 12), d0.gpus);
    const TFLOPS = withDefault(Array.from({ length: 40 }, function (_, i) { return 50 * (i + 1); }), d0.tflops);
    const MODEL_PARALLEL = withDefault(powers(0, 9), d0.model_parallel);
    const MICROBATCH = withDefault(powers(0, 6), d0.microbatch);

    const state = {
      variant: d0.variant,
      length: d0.length,
      tokens: TOKENS.indexOf(d0.step_tokens),
      gpus: GPUS.indexOf(d0.gpus),
      tflops: TFLOPS.indexOf(d0.tflops),
      modelParallel: d0.model_parallel,
      schedule: d0.schedule,
      microbatch: d0.microbatch,
      overlapped: d0.overlapped,
      dataOnEngines: d0.data_on_engines,
    };

    const el = window.Charts.el; // an element with its properties and children
    function id(part) { return NAME + "-" + part; }

    // ---------------------------------------------------------------------------------------- controls
    const form = el("form", { className: "chart-controls explorer-controls", "aria-label": "Step against mask settings" });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });

    function select(name, label, options, value) {
      const s = el("select", { id: id(name), name: name });
      options.forEach(function (o) {
        const opt = el("option", { value: String(o[0]), text: o[1] });
        if (o[0] === value) opt.selected = true;
        s.appendChild(opt);
      });
      form.appendChild(el("span", { className: "explorer-field" }, [el("label", { for: id(name), text: label }), s]));
      return s;
    }

    function range(name, label, list, index) {
      const r = el("input", { type: "range", id: id(name), name: name, min: "0", max: String(list.length - 1), step: "1",
        value: String(index) });
      const out = el("output", { for: id(name), id: id(name + "-value") });
      form.appendChild(el("span", { className: "explorer-field" }, [el("label", { for: id(name), text: label }), r, out]));
      return { input: r, output: out };
    }

    function radios(name, legend, options, value) {
      const set = el("fieldset", { className: "explorer-radios" }, [el("legend", { text: legend })]);
      options.forEach(function (o, i) {
        const rid = id(name + "-" + i);
        const r = el("input", { type: "radio", id: rid, name: id(name), value: String(o[0]) });
        r.checked = o[0] === value;
        set.appendChild(r);
        set.appendChild(el("label", { for: rid, text: o[1] }));
      });
      form.appendChild(set);
      return set;
    }

    function checkbox(name, label, checked) {
      const c = el("input", { type: "checkbox", id: id(name), name: name });
      c.checked = checked;
      form.appendChild(el("span", { className: "explorer-field explorer-check" }, [c, el("label", { for: id(name), text: label })]));
      return c;
    }

    const variantSelect = select("variant", "Variant", data.variants.map(function (v) { return [v.id, v.label]; }),
      state.variant);
    const lengthSet = radios("length", "Sequence length (tokens)",
      data.lengths.map(function (n) { return [n, port.integer(n)]; }), state.length);
    const tokens = range("tokens", "Tokens per step", TOKENS, state.tokens);
    const gpus = range("gpus", "GPUs", GPUS, state.gpus);
    const tflops = range("tflops", "TFLOP/s per GPU (sustained)", TFLOPS, state.tflops);
    const mpSelect = select("model-parallel", "Model-parallel degree (tensor × pipeline)",
      MODEL_PARALLEL.map(function (k) { return [k, port.integer(k)]; }), state.modelParallel);
    const scheduleSet = radios("schedule", "Schedule",
      [["layer-major", "Layer-major"], ["sequence-major", "Sequence-major"]], state.schedule);
    const mbSelect = select("microbatch", "Microbatch m (sequences per pass, sequence-major)",
      MICROBATCH.map(function (m) { return [m, port.integer(m)]; }), state.microbatch);
    const overlapBox = checkbox("overlapped", "Mask writes fully overlapped with the digital work", state.overlapped);
    const dataBox = checkbox("data-on-engines",
      "Data-by-data products on the engines too (their masks spread over the GPUs' engines)", state.dataOnEngines);

    // ---------------------------------------------------------------------------------------- outputs
    const OUTPUTS = [
      ["Weight masks against the step", [
        ["weight_values", "Mask values per pass"],
        ["forward_frames", "Frames, forward (H)"],
        ["backward_frames", "Frames, backward (conj H)"],
        ["weight_seconds", "Weight masks"],
        ["digital_seconds", "Digital step"],
        ["mask_over_step", "Masks / step"],
      ]],
      ["Schedule", [
        ["sequences", "Sequences per step"],
        ["replicas", "Replicas (GPUs ÷ model-parallel degree)"],
        ["passes", "Passes of mask writes"],
        ["frames_per_pass", "Frames per pass"],
        ["mask_time", "Mask time"],
        ["relative", "Relative to layer-major, one engine per GPU"],
      ]],
      ["The step with the engine", [
        ["share", "Share of the step the engine takes"],
        ["removable_seconds", "Removable"],
        ["step_serial_seconds", "Not overlapped"],
        ["step_overlapped_seconds", "Fully overlapped"],
        ["step_seconds", "This step, as set"],
        ["speedup", "Digital step ÷ this step"],
      ]],
      ["Data-by-data masks", [
        ["data_seconds", "One device"],
        ["data_seconds_per_engine", "Over the GPUs' engines"],
      ]],
    ];
    const outs = {};
    const heads = {};
    const tables = OUTPUTS.map(function (group) {
      const body = el("tbody");
      group[1].forEach(function (row) {
        const cell = el("td", { "data-out": row[0] });
        const head = el("th", { scope: "row", text: row[1] });
        outs[row[0]] = cell;
        heads[row[0]] = head;
        body.appendChild(el("tr", {}, [head, cell]));
      });
      return el("table", { className: "explorer-values" }, [el("caption", { text: group[0] }), body]);
    });
    const plot = el("div", { className: "explorer-plot", id: id("plot") });
    // The legend: a checkbox per colour of the chart (and the dashed line), which shows or hides it.
    const hidden = new Set();
    const legend = window.Charts.toggles({
      id: id("series"), legend: "Shown in the chart", hidden: hidden,
      items: [
        { key: "digital", color: COLORS.digital, label: "Digital work (GPUs)" },
        { key: "forward", color: COLORS.forward, label: "Mask writes, forward (H)" },
        { key: "backward", color: COLORS.backward, label: "Mask writes, backward (conj H)" },
        { key: "exposed", color: COLORS.exposed, label: "Mask time the step waits for" },
        { key: "data", color: COLORS.data, label: "Data-by-data mask writes, spread over the engines" },
        { key: "line", color: LINE, dash: true, label: "Digital step (dashed line)" },
      ],
      onChange: function () { update(); },
    });
    const outputs = el("div", { className: "explorer-outputs", "aria-live": "polite" }, tables);
    const caption = el("figcaption", {
      text: "One engine beside every GPU, on a mask of " + port.integer(d0.pixels) + " pixels at " +
        port.integer(d0.frame_rate_hz) + " Hz. Each pass writes every weight spectrum twice (H forward, conj H " +
        "backward); the engine takes its share of the step in zero time. Computed in your browser from the " +
        "analysis results, §2 and §4.",
    });

    holder.textContent = "";
    holder.appendChild(form);
    holder.appendChild(plot);
    holder.appendChild(legend);
    holder.appendChild(outputs);
    holder.appendChild(caption);

    // ---------------------------------------------------------------------------------------- state
    function settings() {
      return {
        step_tokens: TOKENS[state.tokens],
        gpus: GPUS[state.gpus],
        tflops: TFLOPS[state.tflops],
        pixels: d0.pixels,
        frame_rate_hz: d0.frame_rate_hz,
        model_parallel: state.modelParallel,
        schedule: state.schedule,
        microbatch: state.microbatch,
      };
    }

    function terms(variant, length) { return data.terms[variant][String(length)]; }

    // Model-parallel degrees must divide the GPUs: offer only those, and fall back to the largest one.
    function syncControls() {
      const n = GPUS[state.gpus];
      let best = 1;
      Array.prototype.forEach.call(mpSelect.options, function (o) {
        const k = Number(o.value);
        o.disabled = n % k !== 0;
        if (!o.disabled && k <= state.modelParallel && k > best) best = k;
      });
      if (n % state.modelParallel) {
        state.modelParallel = best;
        mpSelect.value = String(best);
      }
      mbSelect.disabled = state.schedule !== "sequence-major";
    }

    function compute() {
      const s = settings();
      const now = port.outputs(terms(state.variant, state.length), s, state.overlapped, state.dataOnEngines);
      return { s: s, now: now };
    }

    function chosen(o) { return state.overlapped ? o.overlapped : o.serial; }

    // ---------------------------------------------------------------------------------------- drawing
    // One axis, two stacked bar traces with a colour per bar, the legend in HTML and the digital step as a
    // dashed line: what Plotly redraws on every move is kept small (the explorer answers within a frame).
    // Every move changes values only (a hidden colour's bars are null, the hidden line has no points) and the
    // axes' ranges are set here, so Charts.update redraws the bars, the line and, when its range moves, the
    // y axis alone. The line is a trace on a second, hidden x axis from 0 to 1 over the categories.
    const CATS = ["Digital<br>step", "Step with<br>the engine", "Weight<br>masks", "Data-by-data<br>masks"];

    function traces(c) {
      const b = c.now.budget, e = chosen(c.now);
      const engines = "over " + port.integer(c.s.gpus) + " engines";
      function shown(key, v) { return hidden.has(key) ? null : v; }
      const digital = b.digital_seconds;
      return [
        {
          type: "bar", x: CATS,
          y: [shown("digital", digital), shown("digital", e.remaining_seconds), shown("forward", b.forward_seconds),
            shown("data", b.data_seconds_per_engine)],
          marker: { color: [COLORS.digital, COLORS.digital, COLORS.forward, COLORS.data] },
          hovertext: ["Digital work", "Digital work that remains", "Mask writes, forward (H)",
            "Data-by-data mask writes, " + engines],
          hovertemplate: "%{hovertext}: %{y:.3f} s<extra></extra>",
        },
        {
          type: "bar", x: [CATS[1], CATS[2]],
          // not overlapped, the mask time itself (the model's, as results §4 prints it), not a difference of sums
          y: [shown("exposed", state.overlapped ? e.step_seconds - e.remaining_seconds : e.mask_seconds),
            shown("backward", b.backward_seconds)],
          marker: { color: [COLORS.exposed, COLORS.backward] },
          hovertext: [state.overlapped ? "Mask time not hidden" : "Mask time, added", "Mask writes, backward (conj H)"],
          hovertemplate: "%{hovertext}: %{y:.3f} s<extra></extra>",
        },
        {
          type: "scatter", mode: "lines", xaxis: "x2", x: hidden.has("line") ? [] : [0, 1],
          y: hidden.has("line") ? [] : [digital, digital], line: { color: LINE, width: 1, dash: "dash" },
          hoverinfo: "skip",
        },
      ];
    }

    // The top of the y axis: a round number above the tallest stack and the line.
    function top(data) {
      let max = 0;
      const stacks = {};
      data.forEach(function (t) {
        if (t.type !== "bar") return;
        t.y.forEach(function (v, i) { if (v !== null) stacks[t.x[i]] = (stacks[t.x[i]] || 0) + v; });
      });
      Object.keys(stacks).forEach(function (k) { max = Math.max(max, stacks[k]); });
      if (data[2].y.length) max = Math.max(max, data[2].y[0]);
      return window.Charts.roundUp(max * 1.04);
    }

    function layout(data) {
      return {
        barmode: "stack",
        showlegend: false,
        height: 360,
        margin: { l: 60, r: 10, t: 10, b: 50 },
        hovermode: "closest",
        xaxis: { categoryorder: "array", categoryarray: CATS, range: [-0.5, CATS.length - 0.5], fixedrange: true },
        xaxis2: { overlaying: "x", range: [0, 1], visible: false, fixedrange: true },
        yaxis: { title: { text: "Seconds per optimizer step" }, range: [0, top(data)], fixedrange: true },
      };
    }

    // Write only what changed, so a move invalidates as little of the page's layout as it can.
    function setText(node, text) { if (node.textContent !== text) node.textContent = text; }
    function setValueText(input, text) {
      if (input.getAttribute("aria-valuetext") !== text) input.setAttribute("aria-valuetext", text);
    }

    function show(c) {
      const t = c.now.text;
      Object.keys(outs).forEach(function (k) { setText(outs[k], t[k]); });
      setText(heads.data_seconds_per_engine, "Over " + port.integer(c.s.gpus) + " engines");
      setText(tokens.output, port.integer(c.s.step_tokens));
      setText(gpus.output, port.integer(c.s.gpus));
      setText(tflops.output, port.integer(c.s.tflops));
      setValueText(tokens.input, port.integer(c.s.step_tokens) + " tokens");
      setValueText(gpus.input, port.integer(c.s.gpus) + " GPUs");
      setValueText(tflops.input, port.integer(c.s.tflops) + " TFLOP/s");
    }

    // The chart first, then the printed values: Plotly measures the page while it draws, and text written before
    // it would have to be laid out first.
    function update() {
      syncControls();
      const c = compute();
      const data = traces(c);
      const drawn = window.Charts.update(plot, data, layout(data), PLOT_CONFIG);
      show(c);
      return drawn;
    }

    variantSelect.addEventListener("change", function () { state.variant = variantSelect.value; update(); });
    lengthSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.type === "radio") { state.length = Number(ev.target.value); update(); }
    });
    tokens.input.addEventListener("input", function () { state.tokens = Number(tokens.input.value); update(); });
    gpus.input.addEventListener("input", function () { state.gpus = Number(gpus.input.value); update(); });
    tflops.input.addEventListener("input", function () { state.tflops = Number(tflops.input.value); update(); });
    mpSelect.addEventListener("change", function () { state.modelParallel = Number(mpSelect.value); update(); });
    scheduleSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.type === "radio") { state.schedule = ev.target.value; update(); }
    });
    mbSelect.addEventListener("change", function () { state.microbatch = Number(mbSelect.value); update(); });
    overlapBox.addEventListener("change", function () { state.overlapped = overlapBox.checked; update(); });
    dataBox.addEventListener("change", function () { state.dataOnEngines = dataBox.checked; update(); });

    // The CSV's figure keys (analysis results §4). At the §4 settings (the defaults: tokens, GPUs, TFLOP/s,
    // layer-major, no model parallelism; the microbatch counts only sequence-major), the digital step and the
    // data-by-data bar are ana.masks.VARIANT.LENGTH.digital_seconds and .data_seconds_per_engine, and the mask time
    // the step waits for (not overlapped, no data-by-data masks on the engines) is .weight_seconds. At a schedule
    // row's settings (Hyena-2 at its length, the defaults but for the schedule, microbatch and model-parallel
    // degree), that mask time is ana.masks.schedule.SLUG.weight_seconds. Nothing else drawn is a figure.
    function atDefaults() {
      return TOKENS[state.tokens] === d0.step_tokens && GPUS[state.gpus] === d0.gpus &&
        TFLOPS[state.tflops] === d0.tflops;
    }
    function scheduleIs(schedule, microbatch, modelParallel) {
      return state.schedule === schedule && state.modelParallel === modelParallel &&
        (schedule !== "sequence-major" || state.microbatch === microbatch);
    }
    function figures(trace, j) {
      if (trace.type !== "bar" || !atDefaults()) return null;
      const row = "ana.masks." + state.variant + "." + state.length;
      const plain = scheduleIs(d0.schedule, d0.microbatch, d0.model_parallel);
      if (trace.x.length === CATS.length) {
        if (!plain) return null;
        return j === 0 ? row + ".digital_seconds" : j === 3 ? row + ".data_seconds_per_engine" : null;
      }
      if (j !== 0 || state.overlapped || state.dataOnEngines) return null;
      if (plain) return row + ".weight_seconds";
      const r = data.schedules.filter(function (q) {
        return q.variant === state.variant && q.length === state.length &&
          scheduleIs(q.schedule, q.microbatch, q.model_parallel);
      })[0];
      return r ? "ana.masks.schedule." + r.slug + ".weight_seconds" : null;
    }

    return {
      plot: plot,
      figures: figures,
      first: function () {
        syncControls();
        const first = compute();
        show(first);
        const drawn = traces(first);
        return [drawn, layout(drawn), PLOT_CONFIG];
      },
    };
  });
})();
