// Captured energy: the share of a tensor's energy each selector keeps at the same k, by run (chunking) and
// parameter group. The payload (<script id="data-captured_energy">) is the vendored experiment's captured
// energy as our experiment results carry it (results.json data.energy); the port
// (assets/js/ports/captured_energy.js) lays out and formats what is drawn and printed, and the tests hold it
// equal to the Python. No inline script or handler: it runs under a strict Content-Security-Policy.
(function () {
  "use strict";
  const NAME = "captured_energy";
  if (!window.Charts || !window.Charts.mount) return;
  window.Charts.mount(NAME, { port: "capturedEnergy" }, function (m) {
    const holder = m.holder;
    const port = m.port;
    const data = m.data;
    const d0 = data.defaults;
    const PLOT_CONFIG = { displaylogo: false, responsive: true, displayModeBar: false };
    // Series colours: the site's palette (tests/browser/test_palette.py holds every pair of one chart ΔE 12 apart
    // under simulated deuteranopia, protanopia and tritanopia, in both colour schemes).
    const COLORS = { topk: "#086191", low: "#cb560d", zigzag: "#ecac00", high: "#009968", random: "#806bf7", calib: "#59c1ff" };
    const SELECTORS = data.selectors.map(function (s) { return s.id; });
    const runs = {};
    data.runs.forEach(function (r) { runs[r.key] = r; });

    const state = { run: d0.run, tensor: d0.tensor, log: false, shown: {} };
    SELECTORS.forEach(function (s) { state.shown[s] = true; });

    const el = window.Charts.el; // an element with its properties and children
    function id(part) { return NAME + "-" + part; }

    // ---------------------------------------------------------------------------------------- controls
    const form = el("form", { className: "chart-controls explorer-controls", "aria-label": "Captured energy settings" });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });

    const runSelect = el("select", { id: id("run"), name: "run" });
    data.runs.forEach(function (r) {
      const o = el("option", { value: r.key, text: r.label });
      if (r.key === state.run) o.selected = true;
      runSelect.appendChild(o);
    });
    form.appendChild(el("span", { className: "explorer-field" }, [
      el("label", { for: id("run"), text: "Run the diagnostics were taken in (chunking)" }), runSelect]));

    const tensorSet = el("fieldset", { className: "explorer-radios" }, [el("legend", { text: "Tensor" })]);
    data.tensors.forEach(function (t, i) {
      const r = el("input", { type: "radio", id: id("tensor-" + i), name: id("tensor"), value: t.id });
      r.checked = t.id === state.tensor;
      tensorSet.appendChild(r);
      tensorSet.appendChild(el("label", { for: id("tensor-" + i), text: t.label }));
    });
    form.appendChild(tensorSet);

    const logBox = el("input", { type: "checkbox", id: id("log"), name: "log" });
    form.appendChild(el("span", { className: "explorer-field explorer-check" }, [
      logBox, el("label", { for: id("log"), text: "Logarithmic scale (shows the smallest shares)" })]));

    // Series toggles beside the chart: one checkbox per selector, in its colour.
    const toggles = el("fieldset", { className: "explorer-radios explorer-toggles" }, [el("legend", { text: "Selectors shown" })]);
    const boxes = {};
    data.selectors.forEach(function (s) {
      const c = el("input", { type: "checkbox", id: id("show-" + s.id), name: id("show") });
      c.checked = true;
      c.dataset.selector = s.id;
      const swatch = el("span", { "aria-hidden": "true" });
      swatch.style.display = "inline-block";
      swatch.style.width = "0.8rem";
      swatch.style.height = "0.8rem";
      swatch.style.borderRadius = "2px";
      swatch.style.background = COLORS[s.id] || "#888";
      toggles.appendChild(c);
      toggles.appendChild(el("label", { for: id("show-" + s.id) }, [swatch, document.createTextNode(" " + s.label)]));
      boxes[s.id] = c;
    });

    // ---------------------------------------------------------------------------------------- outputs
    const outs = {};
    const head = el("tr", {}, [el("th", { scope: "col", text: "Group" })].concat(data.selectors.map(function (s) {
      return el("th", { scope: "col", text: s.label });
    })));
    const body = el("tbody");
    data.groups.forEach(function (g) {
      const cells = data.selectors.map(function (s) {
        const td = el("td", { "data-out": g.id + "." + s.id });
        outs[g.id + "." + s.id] = td;
        return td;
      });
      body.appendChild(el("tr", {}, [el("th", { scope: "row", text: g.label })].concat(cells)));
    });
    const tableCaption = el("caption");
    const values = el("table", { className: "explorer-values" }, [tableCaption, el("thead", {}, [head]), body]);
    const outputs = el("div", { className: "explorer-outputs explorer-wide", "aria-live": "polite" }, [values]);
    const plot = el("div", { className: "explorer-plot", id: id("plot") });
    const caption = el("figcaption", {
      text: "Share of the tensor's energy each selector keeps at the same k (1/" + Math.round(1 / data.keep) +
        " of each chunk's coefficients), on worker 0, averaged over the diagnostics after step 200; the dashed " +
        "line is the keep fraction, about what a random set keeps. Source: the experiment's results, §2 " +
        "(captured energy on real momentum).",
    });

    holder.textContent = "";
    holder.appendChild(form);
    holder.appendChild(toggles);
    holder.appendChild(plot);
    holder.appendChild(outputs);
    holder.appendChild(caption);

    // ---------------------------------------------------------------------------------------- drawing
    function compute() {
      const run = runs[state.run];
      return port.table(run.values[state.tensor], data.keep, SELECTORS);
    }

    function has(t, s) { return data.groups.some(function (g) { return t[g.id][s].share !== null; }); }

    // Every trace keeps its attributes from one setting to the next and only its numbers change, so that
    // Charts.update redraws the bars alone (the axes' ranges are fixed): one trace per selector, a hidden one or
    // one the run does not have with no bars (its place in each group stays empty, so the others do not move, from
    // one run to the next too). The two scales are two y axes, each with its own bars and keep-fraction line: the
    // linear one (y) and the logarithmic one (y2, over it); the scale not shown has no bars, and its axis's range is
    // moved away from its ticks (both list theirs), so it draws nothing. The switch then changes numbers and ranges
    // only, as every other control does (a new axis type would cost Plotly a full redraw).
    function traces(t) {
      const x = data.groups.map(function (g) { return g.label; });
      function bars(log) {
        return data.selectors.map(function (s) {
          const cells = data.groups.map(function (g) { return t[g.id][s.id]; });
          const on = state.shown[s.id] && state.log === log;
          return {
            type: "bar", name: s.label + (log ? " (logarithmic scale)" : ""), x: x, yaxis: log ? "y2" : "y",
            y: cells.map(function (c) { return on ? c.share : null; }),
            customdata: cells.map(function (c) { return [c.text, c.vs_keep_text]; }),
            marker: { color: COLORS[s.id] || "#888" },
            hovertemplate: s.label + ", %{x}: %{customdata[0]} of the energy (%{customdata[1]} the keep fraction)<extra></extra>",
          };
        });
      }
      return bars(false).concat(bars(true), [keep(false), keep(true)]);
    }
    // The keep fraction: a dashed line across the plot with its label, as a trace over an overlaying linear x axis
    // (layout shapes and annotations would be laid out again on every full redraw; an annotation is measured).
    function keep(log) {
      const on = state.log === log;
      return {
        type: "scatter", mode: "lines+text", name: "Keep fraction", x: on ? [0, 1] : [], y: on ? [data.keep, data.keep] : [],
        xaxis: "x2", yaxis: log ? "y2" : "y", hoverinfo: "skip", cliponaxis: false,
        line: { color: "#444", width: 1, dash: "dash" },
        text: on ? ["", "keep fraction 1/" + Math.round(1 / data.keep)] : [], textposition: "top left",
        textfont: { size: 11, color: "#444" },
      };
    }
    // The ticks each scale lists: the linear one's every 0.1, the logarithmic one's as Plotly draws 10^-6 to 1 with
    // 2 and 5 between (smaller).
    const LINEAR = [0, 0.75];
    const LINEAR_TICKS = [0, 1, 2, 3, 4, 5, 6, 7].map(function (i) { return i / 10; });
    const LOG = [-6, 0];
    const LOG_TICKS = [], LOG_TEXT = [];
    for (let e = LOG[0]; e <= LOG[1]; e++) {
      [1, 2, 5].forEach(function (m) {
        if (e === LOG[1] && m > 1) return;
        LOG_TICKS.push(Number((m + "e" + e)));
        LOG_TEXT.push(m > 1 ? "<span style=\"font-size:9px\">" + m + "</span>" : e < -3 ? Math.pow(10, e + 6) + "μ" : String(Number("1e" + e)));
      });
    }
    // Where the scale not shown has its range: above its ticks (no tick, grid line or zero line of it is drawn).
    const AWAY = [2, 3];

    // A new object each time: Plotly writes into the layout it is given. On a wide plot the group names are not
    // turned (tickangle 0), so that Plotly need not measure them to see whether they overlap.
    let wide = false;
    function layout() {
      return {
        barmode: "group",
        showlegend: false,
        dragmode: false,
        height: 360,
        margin: { l: 60, r: 10, t: 10, b: 40 },
        hovermode: "closest",
        xaxis: { fixedrange: true, range: [-0.5, data.groups.length - 0.5], tickangle: wide ? 0 : "auto" },
        xaxis2: { overlaying: "x", range: [0, 1], fixedrange: true, visible: false },
        yaxis: { title: { text: "Share of energy kept" }, range: state.log ? AWAY : LINEAR, tickmode: "array",
          tickvals: LINEAR_TICKS, fixedrange: true },
        yaxis2: { type: "log", overlaying: "y", side: "left", range: state.log ? LOG : AWAY, tickmode: "array",
          tickvals: LOG_TICKS, ticktext: LOG_TEXT, showgrid: true, fixedrange: true },
      };
    }

    function show(t) {
      Object.keys(outs).forEach(function (k) {
        const parts = k.split(".");
        const text = t[parts[0]][parts[1]].text;
        if (outs[k].textContent !== text) outs[k].textContent = text;
      });
      const tensor = data.tensors.find(function (x) { return x.id === state.tensor; });
      tableCaption.textContent = tensor.label + ", " + runs[state.run].label + ": share of energy kept";
      SELECTORS.forEach(function (s) { boxes[s].disabled = !has(t, s); });
    }

    // The chart first, then the printed values: Plotly measures the page while it draws, and text written before
    // it would have to be laid out first.
    function update() {
      const t = compute();
      const drawn = window.Charts.update(plot, traces(t), layout(), PLOT_CONFIG);
      show(t);
      return drawn;
    }

    runSelect.addEventListener("change", function () { state.run = runSelect.value; update(); });
    tensorSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.type === "radio") { state.tensor = ev.target.value; update(); }
    });
    logBox.addEventListener("change", function () { state.log = logBox.checked; update(); });
    toggles.addEventListener("change", function (ev) {
      const s = ev.target && ev.target.dataset ? ev.target.dataset.selector : null;
      if (s) { state.shown[s] = ev.target.checked; update(); }
    });

    // The CSV's figure keys: each bar is the registered figure exp.energy.CONFIG.TENSOR.GROUP.SELECTOR (results §2).
    const SELECTOR_OF = {};
    data.selectors.forEach(function (s) {
      SELECTOR_OF[s.label] = s.id;
      SELECTOR_OF[s.label + " (logarithmic scale)"] = s.id;
    });
    return {
      plot: plot,
      figures: function (trace, j) {
        const sel = trace.type === "bar" ? SELECTOR_OF[trace.name] : undefined;
        const g = data.groups[j];
        return sel && g ? ["exp.energy", runs[state.run].config, state.tensor, g.id, sel].join(".") : null;
      },
      // the layout follows the plot's width (under 600 px or not)
      resized: function () { if (wide !== plot.clientWidth >= 600) { wide = !wide; update(); } },
      first: function () {
        wide = plot.clientWidth >= 600;
        const first = compute();
        show(first);
        return [traces(first), layout(), PLOT_CONFIG];
      },
    };
  });
})();
