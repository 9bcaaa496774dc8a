// Transit explorer (Compute in Transit results home): time and energy to a target loss, and where a step's time
// goes. The payload (<script id="data-transit">) holds the simulation's parameters, topologies, variants and
// whole steps to every loss of the ladder (simulation results.json data.parameters and data.transit); every
// number drawn or printed is computed live by the port (assets/js/ports/transit.js), which the tests hold equal
// to the Python closed form. No inline script or handler: it runs under a strict Content-Security-Policy.
(function () {
  "use strict";
  const NAME = "transit";
  if (!window.Charts || !window.Charts.mount) return;
  window.Charts.mount(NAME, { port: "transit" }, function (m) {
    const holder = m.holder;
    const port = m.port;
    const data = m.data;
    const model = data.model;
    const d0 = data.defaults;
    const PLOT_CONFIG = { displaylogo: false, responsive: true, displayModeBar: false };
    const PARTS = [
      ["compute", "GPU compute", "#086191"],
      ["module", "Module's stream (values ÷ its binding rate)", "#cb560d"],
      ["latency", "Latency (links and module)", "#ecac00"],
      ["intra", "Bytes ÷ bandwidth inside the data centres", "#009968"],
      ["wan", "Bytes ÷ bandwidth between data centres", "#806bf7"],
    ];
    const VARIANTS = Object.keys(model.variants);
    const WANS = Object.keys(model.links).filter(function (k) { return k !== model.intra; });

    const state = {
      shape: d0.dcs + "x" + d0.per_dc,
      wan: d0.wan,
      variant: d0.variant,
      budget: d0.budget,
      target: d0.target,
      view: "target",
      shown: { compute: true, module: true, latency: true, intra: true, wan: true },
    };

    const el = window.Charts.el; // an element with its properties and children
    function id(part) { return NAME + "-" + part; }

    function variantName(v, budget) {
      const spec = model.variants[v];
      return spec.name + (spec.module !== null ? " [" + budget + "]" : "");
    }

    // ---------------------------------------------------------------------------------------- controls
    const form = el("form", { className: "chart-controls explorer-controls", "aria-label": "Transit settings" });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });

    function select(name, label, options, value) {
      const s = el("select", { id: id(name), name: name });
      options.forEach(function (o) {
        const opt = el("option", { value: String(o[0]), text: o[1] });
        if (String(o[0]) === String(value)) opt.selected = true;
        s.appendChild(opt);
      });
      form.appendChild(el("span", { className: "explorer-field" }, [el("label", { for: id(name), text: label }), s]));
      return s;
    }

    function radios(name, legend, options, value, parent) {
      const set = el("fieldset", { className: "explorer-radios" }, [el("legend", { text: legend })]);
      options.forEach(function (o, i) {
        const rid = id(name + "-" + i);
        const r = el("input", { type: "radio", id: rid, name: id(name), value: String(o[0]) });
        r.checked = String(o[0]) === String(value);
        set.appendChild(r);
        set.appendChild(el("label", { for: rid, text: o[1] }));
      });
      (parent || form).appendChild(set);
      return set;
    }

    // The caption's workers and illustrative links, from the payload (every topology has the same workers in all).
    const WORKERS = Array.from(new Set(data.shapes.map(function (sh) { return sh[0] * sh[1]; }))).join(" or ");
    const illustrative = Object.keys(model.links).filter(function (k) { return model.links[k].illustrative; })
      .map(function (k) { return model.links[k].name; });
    const ILLUSTRATIVE = illustrative.length > 1
      ? illustrative.slice(0, -1).join(", ") + " and " + illustrative[illustrative.length - 1] : illustrative.join("");

    const shapeSet = radios("shape", "Data centres × workers each",
      data.shapes.map(function (s) { return [s[0] + "x" + s[1], s[0] + " DC × " + s[1]]; }), state.shape);
    const wanSelect = select("wan", "Link between data centres",
      WANS.map(function (k) { return [k, model.links[k].name]; }), state.wan);
    const variantSelect = select("variant", "Variant", VARIANTS.map(function (v) {
      const spec = model.variants[v];
      return [v, spec.name + " · " + spec.label + (spec.hypothetical ? " (hypothetical)" : "")];
    }), state.variant);
    const budgetSet = radios("budget", "Module's compute budget (E, E′)", Object.keys(model.module.budgets).map(function (b) {
      const f = model.module.budgets[b];
      return [b, "[" + b + "] " + (f === null ? "not charged" : port.grouped(f / 1e9, 0) + " GFLOP/s")];
    }), state.budget);
    const targetSelect = select("target", "Target loss (the steps ladder)", data.targets.map(function (t) {
      return [t.text, t.text + (t.config ? " (" + t.config + "'s final loss)" : "")];
    }), state.target);
    const viewSet = radios("view", "Bars show", [["target", "Time to the target"], ["step", "One step"]], state.view);

    // Series toggles: one checkbox per part of the step, with its colour (the chart's legend).
    const toggles = el("fieldset", { className: "explorer-radios explorer-toggles" }, [el("legend", { text: "Parts of the step shown" })]);
    const boxes = {};
    PARTS.forEach(function (p) {
      const c = el("input", { type: "checkbox", id: id("show-" + p[0]), name: id("show") });
      c.checked = state.shown[p[0]];
      c.dataset.part = p[0];
      const swatch = el("span", { className: "swatch", "aria-hidden": "true" });
      swatch.style.display = "inline-block";
      swatch.style.width = "0.8rem";
      swatch.style.height = "0.8rem";
      swatch.style.borderRadius = "2px";
      swatch.style.background = p[2];
      toggles.appendChild(c);
      toggles.appendChild(el("label", { for: id("show-" + p[0]) }, [swatch, document.createTextNode(" " + p[1])]));
      boxes[p[0]] = c;
    });

    // ---------------------------------------------------------------------------------------- outputs
    const OUTPUTS = [
      ["To the target loss", [
        ["steps", "Steps (measured, whole)"],
        ["step_ms", "Step time"],
        ["time", "Time to the target"],
        ["e_target", "Energy to the target"],
      ]],
      ["Energy per step, J (all workers)", [
        ["e_compute", "Compute"],
        ["e_link", "Links"],
        ["e_module", "Modules"],
        ["e_total", "Per step"],
        ["module_share", "Modules' share"],
      ]],
      ["Hot spots: each resource's share of the step", [
        ["hot.gpu_compute", "GPU compute"],
        ["hot.intra_dc_link", "Intra-DC link"],
        ["hot.module_port", "Module port"],
        ["hot.module_optics", "Module optics"],
        ["hot.module_compute", "Module compute"],
        ["hot.module_fpga", "Module FPGA"],
        ["hot.inter_dc_link", "Inter-DC link"],
      ]],
    ];
    const outs = {};
    const tables = OUTPUTS.map(function (g) {
      const body = el("tbody");
      g[1].forEach(function (row) {
        const cell = el("td", { "data-out": row[0] });
        outs[row[0]] = cell;
        body.appendChild(el("tr", {}, [el("th", { scope: "row", text: row[1] }), cell]));
      });
      return el("table", { className: "explorer-values" }, [el("caption", { text: g[0] }), body]);
    });
    const splitBody = el("tbody");
    PARTS.forEach(function (p) {
      const ms = el("td", { "data-out": "part." + p[0] });
      const share = el("td", { "data-out": "share." + p[0] });
      outs["part." + p[0]] = ms;
      outs["share." + p[0]] = share;
      splitBody.appendChild(el("tr", {}, [el("th", { scope: "row", text: p[1] }), ms, share]));
    });
    const binding = el("td", { "data-out": "binding" });
    outs.binding = binding;
    splitBody.appendChild(el("tr", {}, [el("th", { scope: "row", text: "Module's binding stage" }), binding, el("td")]));
    tables.splice(1, 0, el("table", { className: "explorer-values" }, [el("caption", { text: "Where the step's time goes" }), splitBody]));
    const heading = el("p", { className: "explorer-heading", "aria-live": "polite" });
    const outputs = el("div", { className: "explorer-outputs", "aria-live": "polite" }, tables);
    outputs.style.alignItems = "start";
    const plot = el("div", { className: "explorer-plot", id: id("plot") });
    const caption = el("figcaption", {
      text: "Closed form of the training-transit simulation, computed in your browser: " + WORKERS + " workers on H100s, each step " +
        "the worker's compute, the module's stream (E, E′) and one sync built as rounds of a collective. A round's " +
        "time is its latency plus its bytes over the slower of link and module port. Time to the target = the " +
        "measured whole steps × the step time. C′ and E′ are hypothetical, and these links illustrative: " +
        ILLUSTRATIVE + ". Source: simulation results, §2, §5 and §6.",
    });

    holder.textContent = "";
    holder.appendChild(form);
    holder.appendChild(toggles);
    holder.appendChild(plot);
    holder.appendChild(heading);
    holder.appendChild(outputs);
    holder.appendChild(caption);

    // ---------------------------------------------------------------------------------------- state
    function choice(v) {
      const sh = state.shape.split("x").map(Number);
      const spec = model.variants[v];
      return {
        variant: v, budget: spec.module !== null ? state.budget : null, dcs: sh[0], per_dc: sh[1],
        wan: sh[0] > 1 ? state.wan : null, target: state.target,
      };
    }

    function compute() {
      const all = port.outputsMany(model, VARIANTS.map(choice));
      const byVariant = {};
      VARIANTS.forEach(function (v, i) { byVariant[v] = all[i]; });
      return byVariant;
    }

    function syncControls() {
      wanSelect.disabled = state.shape.split("x")[0] === "1";
    }

    // ---------------------------------------------------------------------------------------- drawing
    // Every trace keeps its attributes from one setting to the next and only its numbers change, so that
    // Charts.update redraws the bars alone: one bar trace per part of the step, its segments laid end to end with
    // `base` (a hidden part has no segments and the others close up); the chosen variant's bar outlined by one more
    // trace; "not reached" as a text trace. The rows are the variants by name ([budget] is in the hover and the
    // heading); the time axis's range is a round number above the longest bar, and its title is the same in both
    // views (a new title costs Plotly a redraw of every axis; the unit is in the heading too).
    const ROWS = VARIANTS.slice().reverse(); // A at the top
    const ROW_NAMES = ROWS.map(function (v) { return model.variants[v].name; });

    function traces(c) {
      const toTarget = state.view === "target";
      const scale = function (o) { return toTarget ? (o.steps === null ? null : o.steps) : 1e3; };
      const at = ROWS.map(function () { return 0; });
      const whole = ROWS.map(function () { return 0; }); // the bars with every part: the axis does not move with a toggle
      const hover = ROWS.map(function (v) { return variantName(v, state.budget); });
      const out = PARTS.map(function (p) {
        const x = [], base = [], text = [];
        ROWS.forEach(function (v, i) {
          const k = scale(c[v]);
          if (k !== null) whole[i] += c[v].parts[p[0]] * k;
          const w = k === null || !state.shown[p[0]] ? null : c[v].parts[p[0]] * k;
          x.push(w);
          base.push(w === null ? null : at[i]);
          text.push(w === null ? "" : port.fixed(w, 3) + (toTarget ? " s" : " ms"));
          if (w !== null) at[i] += w;
        });
        return {
          type: "bar", orientation: "h", name: p[1], y: ROW_NAMES, x: x, base: base, customdata: text, hovertext: hover,
          marker: { color: p[2] }, hovertemplate: "%{hovertext} · " + p[1] + ": %{customdata}<extra></extra>",
        };
      });
      out.push({
        type: "bar", orientation: "h", name: "Chosen variant", y: ROW_NAMES, hoverinfo: "skip",
        x: ROWS.map(function (v, i) { return v === state.variant && at[i] > 0 ? at[i] : null; }),
        base: ROWS.map(function () { return 0; }),
        marker: { color: "rgba(0,0,0,0)", line: { color: "#888", width: 2.5 } },
      });
      out.push({
        type: "scatter", mode: "text", name: "Not reached", y: ROW_NAMES, hoverinfo: "skip", cliponaxis: false,
        x: ROWS.map(function (v) { return toTarget && c[v].steps === null ? 0 : null; }),
        text: ROWS.map(function () { return "not reached"; }), textposition: "middle right",
        textfont: { color: "#6c757d", size: 12 },
      });
      return { data: out, top: Math.max.apply(null, whole) };
    }

    // A new object each time: Plotly writes into the layout it is given. tickangle 0: Plotly would otherwise measure
    // the tick labels to see whether they need turning.
    function layout(top) {
      return {
        barmode: "overlay",
        showlegend: false,
        dragmode: false,
        height: 340,
        margin: { l: 40, r: 16, t: 10, b: 50 },
        hovermode: "closest",
        xaxis: { title: { text: "Seconds to the target, or ms per step" },
          range: [0, window.Charts.roundUp(top * 1.03)], fixedrange: true, tickangle: 0 },
        yaxis: { type: "category", range: [-0.5, ROWS.length - 0.5], fixedrange: true },
      };
    }

    function show(c) {
      const o = c[state.variant];
      Object.keys(outs).forEach(function (k) { if (outs[k].textContent !== o.text[k]) outs[k].textContent = o.text[k]; });
      const t = data.targets.find(function (x) { return x.text === state.target; });
      const title = (state.view === "target" ? "Seconds to the target: " : "Milliseconds per step: ") +
        variantName(state.variant, state.budget) + " on " + state.shape.replace("x", " DC × ") +
        (state.shape[0] === "1" ? " (NDR)" : ", " + model.links[state.wan].name) + ", to a loss of " + t.text;
      if (heading.textContent !== title) heading.textContent = title;
    }

    // The chart first, then the printed values: Plotly measures the page while it draws, and text written before
    // it would have to be laid out first.
    function update() {
      syncControls();
      const c = compute();
      const t = traces(c);
      const drawn = window.Charts.update(plot, t.data, layout(t.top), PLOT_CONFIG);
      show(c);
      return drawn;
    }

    shapeSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.type === "radio") { state.shape = ev.target.value; update(); }
    });
    wanSelect.addEventListener("change", function () { state.wan = wanSelect.value; update(); });
    variantSelect.addEventListener("change", function () { state.variant = variantSelect.value; update(); });
    budgetSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.type === "radio") { state.budget = ev.target.value; update(); }
    });
    targetSelect.addEventListener("change", function () { state.target = targetSelect.value; update(); });
    viewSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.type === "radio") { state.view = ev.target.value; update(); }
    });
    toggles.addEventListener("change", function (ev) {
      const part = ev.target && ev.target.dataset ? ev.target.dataset.part : null;
      if (part) { state.shown[part] = ev.target.checked; update(); }
    });

    // The CSV's figure keys: one segment is a registered figure, A's GPU compute in one step on the topology of the
    // defaults (2 DC × 4 over 100 GbE), the compute row of the closed form worked on AdamW there (simulation results
    // §4, sim.anchor.compute_ms; the bar in ms, the figure in s). Every other segment is a part of a step or of a
    // time the results print only whole.
    function figures(trace, j) {
      const home = state.shape === d0.dcs + "x" + d0.per_dc && state.wan === d0.wan;
      return home && state.view === "step" && trace.name === PARTS[0][1] && ROWS[j] === "A" ? "sim.anchor.compute_ms" : null;
    }

    return {
      plot: plot,
      figures: figures,
      first: function () {
        syncControls();
        const first = compute();
        show(first);
        const firstTraces = traces(first);
        return [firstTraces.data, layout(firstTraces.top), PLOT_CONFIG];
      },
    };
  });
})();
