// Training-step Amdahl explorer (FOptTrn deck 01). The payload (<script id="data-amdahl">) holds each
// variant's FLOPs by op class per sequence and once per step, the mask shape, the mask device and the
// cluster; every number drawn or printed is computed live by the port (assets/js/ports/amdahl.js), which
// the tests hold equal to the Python model. No inline script or handler: it runs under a strict CSP.
(function () {
  "use strict";
  const NAME = "amdahl";
  if (!window.Charts || !window.Charts.mount) return;
  window.Charts.mount(NAME, { port: "amdahl" }, function (m) {
    const holder = m.holder;
    const port = m.port;
    const data = m.data;
    const cfg = data.config;
    const PLOT_CONFIG = { displaylogo: false, responsive: true, displayModeBar: false };
    const PASSES = [["forward", "Forward"], ["backward", "Backward"], ["step", "Step"]];
    const CLASSES = [
      ["digital", "Digital (matmuls, attention, other)", "#b1b9b0"],
      ["transform", "Transforms (FFTs)", "#086191"],
      ["weight_masked", "Weight-masked products", "#009968"],
      ["data_by_data", "Data-by-data products", "#cb560d"],
    ];
    const OUTPUTS = [
      ["Shares and bounds", [
        ["forward", "Optical share, forward pass"],
        ["backward", "Optical share, backward pass"],
        ["step", "Optical share, step"],
        ["static", "Static share (once-per-step masks)"],
        ["data_part", "Data-by-data part of the optical work"],
        ["bound_optical", "Amdahl bound, all optical work"],
        ["bound_static", "Amdahl bound, static masks only"],
        ["backward_over_forward", "Backward / forward FLOPs"],
      ]],
      ["Masks and time per step", [
        ["sequences", "Sequences per step"],
        ["step_gflop_per_token", "Step GFLOP per token"],
        ["weight_values", "Weight-mask values per pass"],
        ["frames_forward", "Mask frames, forward (H)"],
        ["frames_backward", "Mask frames, backward (conj H)"],
        ["weight_seconds", "Weight-mask writes"],
        ["digital_seconds", "Digital step (" + port.integer(cfg.gpus) + " GPUs at " + port.integer(cfg.tflops) +
          " TFLOP/s)"],
        ["mask_over_step", "Mask writes / digital step"],
      ]],
    ];

    const state = {
      variant: data.default.variant,
      length: data.default.length,
      tokens: data.step_tokens.indexOf(data.default.step_tokens),
    };

    const el = window.Charts.el; // an element with its properties and children

    // ---------------------------------------------------------------------------------------- controls
    const form = el("form", { className: "chart-controls explorer-controls", "aria-label": "Explorer settings" });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });

    const variantSelect = el("select", { id: NAME + "-variant", name: "variant" });
    data.variants.forEach(function (v) {
      const o = el("option", { value: v.id, text: v.label });
      if (v.id === state.variant) o.selected = true;
      variantSelect.appendChild(o);
    });
    form.appendChild(el("div", { className: "explorer-field" }, [
      el("label", { for: NAME + "-variant", text: "Variant" }), variantSelect,
    ]));

    const lengthSet = el("fieldset", { className: "explorer-radios" }, [el("legend", { text: "Sequence length" })]);
    data.lengths.forEach(function (n) {
      const id = NAME + "-length-" + n;
      const r = el("input", { type: "radio", id: id, name: NAME + "-length", value: String(n) });
      r.checked = n === state.length;
      lengthSet.appendChild(r);
      lengthSet.appendChild(el("label", { for: id, text: port.integer(n) }));
    });
    form.appendChild(lengthSet);

    const tokensRange = el("input", {
      type: "range", id: NAME + "-tokens", name: "tokens", min: "0", max: String(data.step_tokens.length - 1),
      step: "1", value: String(state.tokens),
    });
    const tokensOut = el("output", { for: NAME + "-tokens", "data-out": "step_tokens" });
    form.appendChild(el("div", { className: "explorer-field" }, [
      el("label", { for: NAME + "-tokens", text: "Tokens per step" }), tokensRange, tokensOut,
    ]));

    // ---------------------------------------------------------------------------------------- outputs
    const plot = el("div", { className: "explorer-plot", id: NAME + "-plot" });
    // The op classes, each a checkbox that shows or hides its segments (keyboard-operable; the chart has no
    // Plotly legend).
    const hidden = new Set();
    const legend = window.Charts.toggles({
      id: NAME + "-class", legend: "Op classes shown", hidden: hidden,
      items: CLASSES.map(function (c) { return { key: c[0], label: c[1], color: c[2] }; }),
      onChange: function () { update(); },
    });
    const outs = {};
    const tables = OUTPUTS.map(function (group) {
      const body = el("tbody");
      group[1].forEach(function (row) {
        const cell = el("td", { "data-out": row[0] });
        const head = el("th", { scope: "row", text: row[1] });
        head.style.padding = cell.style.padding = "0.1rem 0.4rem";
        outs[row[0]] = cell;
        body.appendChild(el("tr", {}, [head, cell]));
      });
      const table = el("table", { className: "explorer-values" }, [el("caption", { text: group[0] }), body]);
      table.style.fontSize = "0.8rem";
      return table;
    });
    outs.step_tokens = tokensOut;
    const outputs = el("div", { className: "explorer-outputs" }, tables);
    // The chart (with its legend) and the printed values side by side where there is room, so that the
    // whole explorer fits a 16:9 slide; stacked on a narrow screen.
    const chartBox = el("div", { className: "explorer-chart" }, [plot, legend]);
    chartBox.style.flex = "1 1 26rem";
    chartBox.style.minWidth = "0";
    outputs.style.flex = "1 1 24rem";
    outputs.style.minWidth = "0";
    const body = el("div", { className: "explorer-body" }, [chartBox, outputs]);
    body.style.display = "flex";
    body.style.flexWrap = "wrap";
    body.style.gap = "0.5rem 1rem";
    body.style.alignItems = "flex-start";
    const caption = el("figcaption", {
      text: "One optimizer step's FLOPs by op class, computed in your browser from the analysis ledger " +
        "(results §2, §4). Optical work: transforms and every Fourier-domain product; the static share " +
        "leaves out the data-by-data products, which no once-per-step mask can hold. Bounds: 1/(1 − share). " +
        "Frames: every weight spectrum written for the forward pass and, conjugated, for the backward " +
        "(layer-major). The longest length is beyond the model's trained context (shape-only); the mask " +
        "device and the cluster are illustrative.",
    });

    // Sizes in rem, not inherited: the same compact explorer in an article and on a 16:9 slide.
    holder.style.fontSize = "0.875rem";
    caption.style.fontSize = "0.8rem";
    caption.style.marginTop = "0.4rem";
    holder.textContent = "";
    holder.appendChild(form);
    holder.appendChild(body);
    holder.appendChild(caption);

    // ---------------------------------------------------------------------------------------- drawing
    function current() {
      const tokens = data.step_tokens[state.tokens];
      const entry = data.ledger[state.variant][String(state.length)];
      return { tokens: tokens, view: port.view(cfg, entry, state.length, tokens) };
    }

    // One bar trace of twelve segments (three passes x four op classes), each segment placed on the one
    // below it with `base`: the stacked bars of four traces, at a fifth less of Plotly's time per update.
    // A hidden class's segments are left out (no height, no hover) and the others close up. The y axis's
    // range is set here (a round number above the tallest bar), so that Charts.update redraws the bars and,
    // when the range moves, the y axis only.
    function traces(v) {
      const x = [], y = [], base = [], color = [], custom = [], names = [];
      let top = 0;
      PASSES.forEach(function (p) {
        const bars = v.bars[p[0]];
        const passTotal = bars.digital + bars.transform + bars.weight_masked + bars.data_by_data;
        let bottom = 0;
        CLASSES.forEach(function (c) {
          const h = bars[c[0]] / 1e15;
          const shown = !hidden.has(c[0]);
          x.push(p[1]);
          y.push(shown ? h : null);
          base.push(bottom);
          if (shown) bottom += h;
          color.push(c[2]);
          names.push(c[1]);
          custom.push([c[1], port.pct(passTotal ? bars[c[0]] / passTotal : 0), h]);
        });
        top = Math.max(top, bottom);
      });
      return { top: top, data: [{
        type: "bar", name: "FLOPs by op class", x: x, y: y, base: base, marker: { color: color }, customdata: custom,
        hovertext: names,
        // %{y} of a bar with a base is its top; the segment's own height is in customdata.
        hovertemplate: "%{customdata[0]}<br>%{x}: %{customdata[2]:.4g} PFLOP, %{customdata[1]} of the pass" +
          "<extra></extra>",
      }] };
    }

    // Only the bars change from one setting to the next: no Plotly legend, no annotations and fixed tick
    // labels, all of which Plotly would lay out again on every update (each costs more than the bars; see
    // scripts/bench_explorers.py), and fixed axes (no zoom or pan on three bars: no drag boxes to rebuild).
    // The legend is the op classes' checkboxes; the shares are in the table beside the chart and in the hover.
    // A new object each time: Plotly writes into the layout it is given.
    function layout(top) {
      return {
        barmode: "overlay",
        showlegend: false,
        dragmode: false,
        margin: { l: 64, r: 10, t: 10, b: 30 },
        height: 300,
        xaxis: { fixedrange: true, range: [-0.5, PASSES.length - 0.5] },
        yaxis: { title: { text: "PFLOP per optimizer step" }, range: [0, window.Charts.roundUp(top * 1.04)], fixedrange: true },
      };
    }

    function show(v) {
      Object.keys(outs).forEach(function (k) { outs[k].textContent = v.text[k]; });
      tokensRange.setAttribute("aria-valuetext", v.text.step_tokens + " tokens");
    }

    function update() {
      const c = current();
      show(c.view);
      const t = traces(c.view);
      return window.Charts.update(plot, t.data, layout(t.top), PLOT_CONFIG);
    }

    variantSelect.addEventListener("change", function () { state.variant = variantSelect.value; update(); });
    lengthSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.name === NAME + "-length") { state.length = Number(ev.target.value); update(); }
    });
    tokensRange.addEventListener("input", function () { state.tokens = Number(tokensRange.value); update(); });

    return {
      plot: plot,
      first: function () {
        const c = current();
        show(c.view);
        const t = traces(c.view);
        return [t.data, layout(t.top), PLOT_CONFIG];
      },
    };
  });
})();
