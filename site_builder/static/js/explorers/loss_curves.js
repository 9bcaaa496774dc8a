// Validation loss against steps or cumulative wire bytes, mean over seeds with the seeds' range, and the steps
// ladder marked on the curves. The per-seed data is in <script id="data-loss_curves">; the statistics, the
// steps to each target and where their marks sit come from the port (assets/js/ports/loss_curves.js), which
// the tests hold equal to the Python model. No inline script or handler: it runs under a strict
// Content-Security-Policy.
(function () {
  "use strict";
  const NAME = "loss_curves";
  if (!window.Charts || !window.Charts.mount) return;
  window.Charts.mount(NAME, { port: "lossCurves" }, function (m) {
    const holder = m.holder;
    const port = m.port;
    const data = m.data;
    const PLOT_CONFIG = { displaylogo: false, responsive: true, displayModeBar: false };
    // Series colours: the site's palette, one colour per configuration within a group and the same colour for the
    // same optics setting in both optics groups; each group has its own line dash and mark symbol
    // (tests/browser/test_palette.py holds every pair of series distinct under simulated colour blindness).
    const COLORS = {
      A: "#086191", B: "#cb560d", "C-1d256": "#009968", "C-2d64": "#ecac00", D: "#806bf7", "F-random": "#9a84a1",
      "enob8-p8": "#086191", "enob6-p8": "#cb560d", "enob10-p8": "#009968", "enob8-p4": "#ecac00", "enob8-p12": "#806bf7", "enob12-p8": "#59c1ff",
      "Ef-enob8-p8": "#9a84a1",
    };
    const GROUP_STYLE = {
      main: { dash: "solid", symbol: "diamond" },
      repaired: { dash: "dash", symbol: "square" },
      first: { dash: "dot", symbol: "triangle-up" },
    };
    data.series.forEach(function (s) {
      const b = port.band(s.seeds);
      s.mean = b.mean;
      s.low = b.low;
      s.high = b.high;
      s.wire_gb = port.wireGB(s.wire_bytes);
      s.nseeds = s.seeds.length;
      s.color = COLORS[s.id] || COLORS[s.id.replace(/^Ex?-/, "")] || "#888";
      s.dash = GROUP_STYLE[s.group].dash;
      s.symbol = GROUP_STYLE[s.group].symbol;
      s.reach = {};
      Object.keys(s.steps_to).forEach(function (t) { s.reach[t] = port.stepsTo(s.steps_to[t]); });
    });
    const axes = {
      steps: { key: "steps", title: "Training step" },
      wire: { key: "wire_gb", title: "Cumulative bytes on the wire per worker (GB)" },
    };
    // Every array a trace draws, made once: the curves, and the bands' outlines (there and back) on each x axis.
    Object.keys(axes).forEach(function (axis) {
      data.series.forEach(function (s) {
        const x = s[axes[axis].key];
        s.band = s.band || {};
        s.band[axis] = { x: x.concat(x.slice().reverse()), y: s.high.concat(s.low.slice().reverse()) };
      });
    });
    // The x axis from 0 to a round number past the shown configurations' last evaluation.
    function xRange() {
      const key = axes[state.axis].key;
      let hi = 0;
      data.series.forEach(function (s) { if (state.shown[s.id]) hi = Math.max(hi, s[key][s[key].length - 1]); });
      return [0, window.Charts.roundUp(hi || 1)];
    }
    const state = { axis: "steps", target: data.default_target, shown: {} };
    data.series.forEach(function (s) { state.shown[s.id] = s.visible; });

    const el = window.Charts.el; // an element with its properties and children
    function id(part) { return NAME + "-" + part; }
    function swatch(color) {
      const s = el("span", { "aria-hidden": "true" });
      s.style.display = "inline-block";
      s.style.width = "0.8rem";
      s.style.height = "0.8rem";
      s.style.borderRadius = "2px";
      s.style.background = color;
      return s;
    }
    function targetOf(text) { return data.ladder.find(function (t) { return t.text === text; }) || null; }

    // ---------------------------------------------------------------------------------------- controls
    const controls = el("div", { className: "chart-controls explorer-controls" }, [el("span", { text: "x axis:" })]);
    Object.keys(axes).forEach(function (axis) {
      const b = el("button", { type: "button", id: id("axis-" + axis), text: axis === "steps" ? "Steps" : "Wire bytes" });
      b.dataset.axis = axis;
      b.setAttribute("aria-pressed", String(axis === state.axis));
      b.addEventListener("click", function () {
        state.axis = axis;
        update();
        controls.querySelectorAll("button[data-axis]").forEach(function (o) {
          o.setAttribute("aria-pressed", String(o.dataset.axis === state.axis));
        });
      });
      controls.appendChild(b);
    });
    const targetSelect = el("select", { id: id("target"), name: "target" });
    [["", "none"]].concat(data.ladder.map(function (t) { return [t.text, t.text + " (" + t.config + "'s final loss)"]; }))
      .forEach(function (o) {
        const opt = el("option", { value: o[0], text: o[1] });
        if (o[0] === state.target) opt.selected = true;
        targetSelect.appendChild(opt);
      });
    controls.appendChild(el("span", { className: "explorer-field" }, [
      el("label", { for: id("target"), text: "Steps ladder: mark the target loss" }), targetSelect]));

    // Series toggles beside the chart: a fieldset per group, a checkbox for the whole group and one per series.
    const toggles = el("div", { className: "explorer-toggles" });
    const groupBoxes = {};
    const seriesBoxes = {};
    data.groups.forEach(function (g) {
      const members = data.series.filter(function (s) { return s.group === g.id; });
      const all = el("input", { type: "checkbox", id: id("group-" + g.id) });
      all.dataset.group = g.id;
      groupBoxes[g.id] = all;
      const set = el("fieldset", { className: "explorer-radios" }, [
        el("legend", {}, [all, el("label", { for: id("group-" + g.id), text: " " + g.name })]),
      ]);
      members.forEach(function (s) {
        const c = el("input", { type: "checkbox", id: id("show-" + s.id) });
        c.dataset.series = s.id;
        seriesBoxes[s.id] = c;
        set.appendChild(el("span", { className: "explorer-field explorer-check" }, [
          c, el("label", { for: id("show-" + s.id) }, [swatch(s.color), document.createTextNode(" " + s.name)])]));
      });
      toggles.appendChild(set);
    });

    function syncBoxes() {
      data.groups.forEach(function (g) {
        const members = data.series.filter(function (s) { return s.group === g.id; });
        const on = members.filter(function (s) { return state.shown[s.id]; }).length;
        groupBoxes[g.id].checked = on === members.length;
        groupBoxes[g.id].indeterminate = on > 0 && on < members.length;
      });
      data.series.forEach(function (s) { seriesBoxes[s.id].checked = state.shown[s.id]; });
    }

    toggles.addEventListener("change", function (ev) {
      const t = ev.target;
      if (!t || t.type !== "checkbox") return;
      if (t.dataset.group) {
        data.series.forEach(function (s) { if (s.group === t.dataset.group) state.shown[s.id] = t.checked; });
      } else if (t.dataset.series) {
        state.shown[t.dataset.series] = t.checked;
      }
      update();
    });

    // ---------------------------------------------------------------------------------------- outputs
    const stepsCaption = el("caption");
    const stepsBody = el("tbody");
    const rows = {};
    data.series.forEach(function (s) {
      const cell = el("td", { "data-out": "steps." + s.id });
      const row = el("tr", {}, [el("th", { scope: "row" }, [swatch(s.color), document.createTextNode(" " + s.name)]), cell]);
      rows[s.id] = { row: row, cell: cell };
      stepsBody.appendChild(row);
    });
    const stepsTable = el("table", { className: "explorer-values" }, [stepsCaption, stepsBody]);
    const outputs = el("div", { className: "explorer-outputs", "aria-live": "polite" }, [stepsTable]);
    const plot = el("div", { className: "explorer-plot", id: id("plot") });
    const caption = el("figcaption", {
      text: "Mean over seeds; the grey band around a configuration's curve spans its seeds' lowest to highest " +
        "loss. The dashed line is the chosen loss of the steps ladder (each target is a configuration's final " +
        "loss) and a diamond marks where each configuration first reaches it, averaged over its seeds " +
        "(evaluations every " + data.eval_every + " steps). Show or hide configurations with the checkboxes. " +
        "Source: experiment results, §2 and §4.",
    });

    holder.textContent = "";
    holder.appendChild(controls);
    holder.appendChild(toggles);
    holder.appendChild(plot);
    holder.appendChild(outputs);
    holder.appendChild(caption);

    // ---------------------------------------------------------------------------------------- drawing
    // The same traces on every move (a band for each configuration with more than one seed, its mean curve, the
    // target's line and the marks where each configuration first reaches it), the legend in HTML (the checkboxes
    // above) and fixed axis ranges: a hidden configuration's traces, or an unchosen target's, have no points. So
    // every move changes values only and Charts.update redraws the traces alone, and the axes whose range or
    // title moved.
    const NONE = [];
    // The hover's x value, labelled, as each point's customdata: written once per series and axis, so that the
    // hovertemplate stays the same on both axes and switching the axis changes values only (a changed template
    // would cost a full redraw of every trace). Thousands grouped with commas, as Plotly's ",".
    function grouped(text) {
      const [whole, frac] = text.split(".");
      return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (frac === undefined ? "" : "." + frac);
    }
    data.series.forEach(function (s) {
      s.hoverX = {
        steps: s.steps.map(function (x) { return "step " + grouped(String(x)); }),
        wire: s.wire_gb.map(function (x) { return grouped(x.toFixed(3)) + " GB on the wire per worker"; }),
      };
    });
    const BAND = "rgba(120, 130, 140, 0.25)";
    const markColors = data.series.map(function (s) { return s.color; });
    const markSymbols = data.series.map(function (s) { return s.symbol; });

    function traces() {
      const out = [];
      const axis = state.axis;
      const key = axes[axis].key;
      // The shown configurations' bands, one trace of closed outlines apart (null between them): a trace per
      // band would cost Plotly a trace's defaults, calcdata and drawing each on every move.
      const bx = [], by = [];
      data.series.forEach(function (s) {
        if (s.nseeds < 2 || !state.shown[s.id]) return;
        if (bx.length) { bx.push(null); by.push(null); }
        Array.prototype.push.apply(bx, s.band[axis].x);
        Array.prototype.push.apply(by, s.band[axis].y);
      });
      out.push({
        x: bx, y: by, fill: "toself", fillcolor: BAND, line: { width: 0 }, hoverinfo: "skip", type: "scatter",
        mode: "lines", name: "seeds' range",
      });
      data.series.forEach(function (s) {
        const on = state.shown[s.id];
        out.push({
          x: on ? s[key] : NONE, y: on ? s.mean : NONE,
          name: s.name + " (" + s.nseeds + (s.nseeds > 1 ? " seeds)" : " seed)"),
          legendgroup: s.id, visible: true, type: "scatter", mode: "lines",
          line: { color: s.color, width: 2, dash: s.dash },
          customdata: on ? s.hoverX[axis] : NONE,
          hovertemplate: s.name + "<br>%{customdata}<br>loss %{y:.3f}<extra></extra>",
        });
      });
      const t = targetOf(state.target);
      const y = t ? Number(t.text) : null;
      out.push({
        type: "scatter", mode: "lines+text", name: "target", hoverinfo: "skip",
        x: t ? xRange() : NONE, y: t ? [y, y] : NONE, text: t ? ["", t.text + " (" + t.config + ")"] : NONE,
        textposition: "top left", textfont: { size: 11, color: "#444" }, line: { color: "#444", width: 1, dash: "dash" },
      });
      const reach = data.series.map(function (s) {
        return t && state.shown[s.id] && s.reach[t.text].mean !== null ? s.reach[t.text] : null;
      });
      out.push({
        type: "scatter", mode: "markers", name: "first reaches the target",
        x: reach.map(function (r, i) { return r && markX(data.series[i], r.mean); }),
        y: reach.map(function (r) { return r && y; }),
        marker: { symbol: markSymbols, size: 11, color: markColors, line: { color: "#fff", width: 1 } },
        hovertext: reach.map(function (r, i) {
          return r ? data.series[i].name + " first reaches " + t.text + " at step " + r.text +
            (r.seeds > 1 ? " (mean of " + r.seeds + " seeds)" : "") : "";
        }),
        hovertemplate: "%{hovertext}<extra></extra>",
      });
      return out;
    }

    function markX(s, mean) {
      return state.axis === "steps" ? mean : port.wireAt(s.steps, s.wire_gb, mean);
    }

    // A new object each time: Plotly writes into the layout it is given. tickangle 0: Plotly would otherwise measure
    // the x axis's tick labels (numbers) on every redraw of the axis to see whether they need turning.
    function layout() {
      const diverged = data.series.some(function (s) { return s.group === "first" && state.shown[s.id]; });
      return {
        showlegend: false,
        margin: { l: 60, r: 10, t: 10, b: 50 },
        xaxis: { title: { text: axes[state.axis].title }, zeroline: false, range: xRange(), tickangle: 0 },
        yaxis: { title: { text: "Validation loss (nats per token)" }, type: "log",
          range: [Math.log10(1.5), Math.log10(diverged ? 800 : 6)] },
        hovermode: "closest",
        height: 500,
      };
    }

    function show() {
      const t = targetOf(state.target);
      stepsTable.hidden = !t;
      if (t) stepsCaption.textContent = "Steps to reach " + t.text + " (" + t.config + "'s final loss)";
      data.series.forEach(function (s) {
        const text = t ? s.reach[t.text].text : "";
        if (rows[s.id].cell.textContent !== text) rows[s.id].cell.textContent = text;
        rows[s.id].row.hidden = !state.shown[s.id];
      });
      syncBoxes();
    }

    // The chart first, then the printed values: Plotly measures the page while it draws, and text written before
    // it would have to be laid out first.
    function update() {
      const drawn = window.Charts.update(plot, traces(), layout(), PLOT_CONFIG);
      show();
      return drawn;
    }

    targetSelect.addEventListener("change", function () { state.target = targetSelect.value; update(); });

    // The CSV's figure keys (experiment results §2 and §4): a shown configuration's mean curve ends at its final loss,
    // the mean over its seeds of their last evaluation (exp.final_mean.ID, the point's y); on the steps axis, a mark
    // sits at the steps that configuration takes to reach the chosen target (exp.steps.ID.TARGET, the point's x; on
    // the wire axis its x is bytes, no figure). The curves' other points are the runs' evaluations, no figures.
    const SERIES_OF = {};
    data.series.forEach(function (s) { SERIES_OF[s.id] = s; });
    function figures(trace, j) {
      const t = targetOf(state.target);
      if (trace.name === "first reaches the target") {
        const s = data.series[j];
        return state.axis === "steps" && t && s && state.shown[s.id] && s.reach[t.text].mean !== null
          ? "exp.steps." + s.id + "." + t.text : null;
      }
      const s = trace.mode === "lines" ? SERIES_OF[trace.legendgroup] : undefined;
      return s && state.shown[s.id] && j === s.steps.length - 1 ? "exp.final_mean." + s.id : null;
    }

    return {
      plot: plot,
      figures: figures,
      first: function () {
        show();
        return [traces(), layout(), PLOT_CONFIG];
      },
    };
  });
})();
