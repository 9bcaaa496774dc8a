// The module as a link kernel (deck CiT 05). The payload (<script id="data-link_kernel">) holds the module's
// spec, the steps of E and E′ on 2 DC × 4 over 100 GbE phase by phase and the steps to the target by plane
// count (simulation results.json data); every number drawn or printed is computed live by the port
// (assets/js/ports/link_kernel.js), which the tests hold equal to the Python model. No inline script or
// handler: it runs under a strict Content-Security-Policy.
(function () {
  "use strict";
  const NAME = "link_kernel";
  if (!window.Charts || !window.Charts.mount) return;
  window.Charts.mount(NAME, { port: "linkKernel" }, function (m) {
    const holder = m.holder;
    const port = m.port;
    const data = m.data;
    const model = data.model;
    const d0 = data.defaults;
    const PLOT_CONFIG = { displaylogo: false, responsive: true, displayModeBar: false };
    const STAGE_LABELS = { port: "Port", optics: "Optics", compute: "Compute", fpga: "FPGA" };
    // Series colours: the site's palette (tests/browser/test_palette.py holds every pair of one chart ΔE 12 apart
    // under simulated deuteranopia, protanopia and tritanopia, in both colour schemes).
    const BIND = "#cb560d";
    const OTHER = "#b1b9b0";
    const RESOURCE_COLORS = {
      "GPU compute": "#086191",
      "intra-DC link": "#59c1ff",
      "module port": "#9a84a1",
      "module optics": "#ecac00",
      "module compute": "#cb560d",
      "module FPGA": "#806bf7",
      "inter-DC link": "#009968",
    };

    const state = { variant: d0.variant, budget: d0.budget, planes: d0.planes, fpga: d0.fpga };

    const el = window.Charts.el; // an element with its properties and children
    function id(part) { return NAME + "-" + part; }
    // Tight rows, so the whole explorer fits a 16:9 slide.
    function compact(table) {
      table.style.alignSelf = "start";
      table.style.fontSize = "0.8rem";
      table.querySelectorAll("th, td").forEach(function (c) { c.style.padding = "0.08rem 0.45rem"; });
      return table;
    }

    // ---------------------------------------------------------------------------------------- controls
    const form = el("form", { className: "chart-controls explorer-controls", "aria-label": "Link module settings" });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });

    const variantSelect = el("select", { id: id("variant"), name: "variant" });
    data.variants.forEach(function (v) {
      const o = el("option", { value: v.id, text: v.label });
      if (v.id === state.variant) o.selected = true;
      variantSelect.appendChild(o);
    });
    form.appendChild(el("span", { className: "explorer-field" },
      [el("label", { for: id("variant"), text: "Where the module sits" }), variantSelect]));

    const budgetSet = el("fieldset", { className: "explorer-radios" }, [el("legend", { text: "Compute budget" })]);
    ["low", "high", "free"].forEach(function (b) {
      const rid = id("budget-" + b);
      const r = el("input", { type: "radio", id: rid, name: id("budget"), value: b });
      r.checked = b === state.budget;
      budgetSet.appendChild(r);
      const flops = model.budgets[b];
      budgetSet.appendChild(el("label", { for: rid, title: model.budget_labels[b],
        text: "[" + b + "] " + (flops === null ? "not charged" : port.grouped(flops / 1e9) + " GFLOP/s") }));
    });
    form.appendChild(budgetSet);

    function range(name, label, min, max, value) {
      const r = el("input", { type: "range", id: id(name), name: name, min: String(min), max: String(max), step: "1",
        value: String(value) });
      const out = el("output", { for: id(name), id: id(name + "-value") });
      form.appendChild(el("span", { className: "explorer-field" }, [el("label", { for: id(name), text: label }), r, out]));
      return { input: r, output: out };
    }
    const planes = range("planes", "Bit planes", data.planes_range[0], data.planes_range[1], state.planes);
    const fpga = range("fpga", "FPGA rate (G values/s)", data.fpga_range_g[0], data.fpga_range_g[1], state.fpga / 1e9);

    // ---------------------------------------------------------------------------------------- outputs
    const TABLES = [
      ["The four stages, G values/s", [
        ["rate_port", "Port"],
        ["rate_optics", "Optics"],
        ["rate_compute", "Compute"],
        ["rate_fpga", "FPGA"],
        ["binding", "Binding stage"],
        ["module_time", "Module time per step"],
        ["stops_binding", "Transform binds until"],
      ]],
      ["Where the step goes", model.resources.map(function (r) { return ["hot_" + port.slug(r), r]; })],
      ["The step, " + data.topology, [
        ["step", "Step"],
        ["steps", "Steps to " + data.target + " (ENOB 8)"],
        ["time", "Time to " + data.target],
      ]],
    ];
    const outs = {};
    const tables = TABLES.map(function (group) {
      const body = el("tbody");
      group[1].forEach(function (row) {
        const cell = el("td", { "data-out": row[0] });
        outs[row[0]] = cell;
        body.appendChild(el("tr", {}, [el("th", { scope: "row", text: row[1] }), cell]));
      });
      return compact(el("table", { className: "explorer-values" }, [el("caption", { text: group[0] }), body]));
    });
    const plot = el("div", { className: "explorer-plot", id: id("plot") });
    // The parts of the step, each a checkbox that shows or hides its segment of the step's bar (keyboard-operable;
    // the chart has no Plotly legend).
    const hidden = new Set();
    const legend = window.Charts.toggles({
      id: id("show"), legend: "Parts of the step shown", hidden: hidden,
      items: model.resources.map(function (r) { return { key: r, label: r, color: RESOURCE_COLORS[r] }; }),
      onChange: function () { update(); },
    });
    // Compact, so the whole explorer fits a 16:9 slide: the fieldset's legend floated into the row of checkboxes
    // (a floated legend is laid out as one more item of the row, not on the border).
    legend.style.fontSize = "0.75rem";
    legend.style.gap = "0 0.7rem";
    legend.style.padding = "0.1rem 0.5rem";
    legend.style.margin = "0.1rem 0 0.3rem";
    legend.querySelector("legend").style.float = "left";
    const outputs = el("div", { className: "explorer-outputs", "aria-live": "polite" }, tables);
    const caption = el("figcaption", {
      text: "Four pipelined stages; the slowest sets the module's rate, and each bit plane is one optical pass. " +
        "Each sync round is charged to its slowest part. Computed in your browser from the simulation results " +
        "(§2, §3, §6, §8).",
    });

    holder.textContent = "";
    holder.appendChild(form);
    holder.appendChild(plot);
    holder.appendChild(legend);
    holder.appendChild(outputs);
    holder.appendChild(caption);

    // ---------------------------------------------------------------------------------------- drawing
    const STAGE_Y = port.STAGES.map(function (s) { return STAGE_LABELS[s]; });
    const STEP_Y = model.resources.map(function () { return "Step"; });
    const STEP_COLORS = model.resources.map(function (r) { return RESOURCE_COLORS[r]; });

    const roundUp = window.Charts.roundUp; // the axes' ranges move in round steps: most moves redraw the bars only

    // Every trace keeps its attributes from one setting to the next and only its numbers change, so that
    // Charts.update redraws the bars alone: the stage rates as two traces (the binding stage in orange, the others
    // in grey, each with no bar where the other has one; their values are in the table below and in the hover, not
    // printed on the bars, whose text Plotly would measure on every update), and the step as one bar per resource
    // laid end to end (one trace of a segment per resource, in the results' column order from the left; a resource
    // the step does not use, or one hidden, has no segment and the others close up).
    let drawnPhases = []; // the step's phases the bars were last drawn from (the CSV's figure keys read them)
    function traces(o, ph) {
      drawnPhases = ph;
      const rates = [[], []], text = [[], []];
      port.STAGES.forEach(function (s) {
        const r = o.rates[s];
        const k = s === o.binding ? 1 : 0;
        rates[k].push(r === null ? 0 : r / 1e9);
        text[k].push(r === null ? "not charged" : port.fixed(r / 1e9, 2));
        rates[1 - k].push(null);
        text[1 - k].push("");
      });
      const out = [0, 1].map(function (k) {
        return {
          type: "bar", orientation: "h", x: rates[k], y: STAGE_Y, xaxis: "x", yaxis: "y", customdata: text[k],
          showlegend: false, width: 0.7, marker: { color: k ? BIND : OTHER }, name: k ? "Binding stage" : "Stage",
          hovertemplate: "%{y}: %{customdata} G values/s<extra></extra>",
        };
      });
      const byRes = {};
      ph.forEach(function (p) { byRes[p.resource] = (byRes[p.resource] || 0) + p.time * 1e3; });
      const x = [], base = [];
      let at = 0;
      model.resources.forEach(function (r) {
        const t = byRes[r];
        if (!t || hidden.has(r)) { x.push(null); base.push(null); return; }
        x.push(t);
        base.push(at);
        at += t;
      });
      out.push({
        type: "bar", orientation: "h", y: STEP_Y, x: x, base: base, xaxis: "x2", yaxis: "y2", width: 0.8,
        name: "The step, ms", hovertext: model.resources, customdata: x, showlegend: false,
        hovertemplate: "%{hovertext}: %{customdata:.3f} ms<extra></extra>", // %{x} of a bar with a base is its end
        marker: { color: STEP_COLORS, line: { color: "#fff", width: 1 } },
      });
      return out;
    }

    // Fixed ranges (round numbers above the longest bars), no drag boxes: Plotly lays out the axes again only when
    // a range moves.
    function layout(o, step) {
      const finite = port.STAGES.filter(function (s) { return o.rates[s] !== null; })
        .map(function (s) { return o.rates[s] / 1e9; });
      return {
        barmode: "overlay",
        showlegend: false,
        dragmode: false,
        height: 215,
        margin: { l: 62, r: 20, t: 22, b: 22 },
        hovermode: "closest",
        annotations: [
          { xref: "paper", yref: "paper", x: 0, y: 1, yanchor: "bottom", xanchor: "left", showarrow: false,
            text: "Stage rates, G values/s (the binding stage in orange)", font: { size: 12 } },
          { xref: "paper", yref: "paper", x: 0, y: 0.26, yanchor: "bottom", xanchor: "left", showarrow: false,
            text: "The step, ms, by where its time goes", font: { size: 12 } },
        ],
        // tickangle 0: Plotly would otherwise measure the tick labels to see whether they need turning.
        xaxis: { domain: [0, 1], anchor: "y", range: [0, roundUp(Math.max.apply(null, finite) * 1.03)], fixedrange: true,
          tickangle: 0 },
        yaxis: { domain: [0.5, 1], anchor: "x", range: [port.STAGES.length - 0.5, -0.5], fixedrange: true },
        xaxis2: { domain: [0, 1], anchor: "y2", range: [0, roundUp(step * 1e3 * 1.02)], fixedrange: true, tickangle: 0 },
        yaxis2: { domain: [0, 0.24], anchor: "x2", range: [-0.5, 0.5], fixedrange: true, showticklabels: false },
      };
    }

    function settings() {
      return { variant: state.variant, budget: state.budget, planes: state.planes, fpga: state.fpga };
    }

    function put(node, text) { if (node.textContent !== text) node.textContent = text; }
    function show(o) {
      Object.keys(outs).forEach(function (k) { put(outs[k], o.text[k]); });
      put(planes.output, o.text.planes);
      put(fpga.output, o.text.fpga);
      planes.input.setAttribute("aria-valuetext", o.text.planes + " bit planes");
      fpga.input.setAttribute("aria-valuetext", o.text.fpga);
    }

    // The chart first, then the printed values: Plotly measures the page while it draws, and text written before
    // it would have to be laid out first.
    function update() {
      const o = port.outputs(model, settings());
      const ph = port.phases(model, state.variant, port.specOf(model, settings()));
      const drawn = window.Charts.update(plot, traces(o, ph), layout(o, o.step_s), PLOT_CONFIG);
      show(o);
      return drawn;
    }

    variantSelect.addEventListener("change", function () { state.variant = variantSelect.value; update(); });
    budgetSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.type === "radio") { state.budget = ev.target.value; update(); }
    });
    planes.input.addEventListener("input", function () { state.planes = Number(planes.input.value); update(); });
    fpga.input.addEventListener("input", function () { state.fpga = Number(fpga.input.value) * 1e9; update(); });

    // The CSV's figure keys (simulation results §3 and §12), only where the bar is that figure at this setting: the
    // port's rate at any setting (sim.module.port_gvalues); the optics' at the plane count the results use
    // (sim.setting.module.optics_gvalues) and the FPGA's at their FPGA rate (sim.setting.module.fpga); and, at both,
    // the step's segment of the module's binding stage, when the module's phase is its only phase: the module's time
    // per step at this budget (sim.module.time_ms.BUDGET, the same for E and E′). Bars in G values/s and ms, the
    // figures in values/s and s.
    function figures(trace, j) {
      const planesAt = state.planes === model.spec.planes;
      const fpgaAt = state.fpga === model.spec.fpga_values_per_s;
      if (trace.yaxis === "y") {
        const stage = port.STAGES[j];
        if (stage === "port") return "sim.module.port_gvalues";
        if (stage === "optics" && planesAt) return "sim.setting.module.optics_gvalues";
        if (stage === "fpga" && fpgaAt) return "sim.setting.module.fpga";
        return null;
      }
      if (trace.yaxis !== "y2" || !planesAt || !fpgaAt) return null;
      const r = model.resources[j];
      const same = drawnPhases.filter(function (p) { return p.resource === r; });
      const module = drawnPhases.filter(function (p) { return p.kind === "module"; });
      return same.length === 1 && module.length === 1 && same[0] === module[0] ? "sim.module.time_ms." + state.budget : null;
    }

    return {
      plot: plot,
      figures: figures,
      first: function () {
        const first = port.outputs(model, settings());
        show(first);
        const firstTraces = traces(first, port.phases(model, state.variant, port.specOf(model, settings())));
        return [firstTraces, layout(first, first.step_s), PLOT_CONFIG];
      },
    };
  });
})();
