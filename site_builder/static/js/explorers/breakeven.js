// Break-even against WAN bandwidth (deck CiT 05). The payload (<script id="data-breakeven">) holds every
// variant's step on 2 DC × 4 over 100 GbE phase by phase, the steps to the target and the recorded points
// (simulation results.json data); every number drawn or printed is computed live by the port
// (assets/js/ports/breakeven.js), which the tests hold equal to the Python model. No inline script or
// handler: it runs under a strict Content-Security-Policy.
(function () {
  "use strict";
  const NAME = "breakeven";
  if (!window.Charts || !window.Charts.mount) return;
  window.Charts.mount(NAME, { port: "breakeven" }, function (m) {
    const holder = m.holder;
    const port = m.port;
    const data = m.data;
    const model = data.model;
    const d0 = data.defaults;
    const PLOT_CONFIG = { displaylogo: false, responsive: true, displayModeBar: false };
    // Series colours: the site's palette (tests/browser/test_palette.py holds every pair of one chart ΔE 12 apart
    // under simulated deuteranopia, protanopia and tritanopia, in both colour schemes).
    const COLORS = { A: "#086191", B: "#59c1ff", C: "#009968", Cp: "#806bf7", E: "#cb560d", Ep: "#ecac00" };
    const SLIDER = data.slider; // log10 of GB/s: min, max, step
    const variants = data.variants;

    const state = { bandwidth: d0.bandwidth, basis: d0.basis, budget: d0.budget, mean: d0.mean, point: null };

    const el = window.Charts.el; // an element with its properties and children
    function id(part) { return NAME + "-" + part; }
    function position(bw) { return Math.log10(bw / 1e9); }
    // Tight rows, so the whole explorer fits a 16:9 slide.
    function compact(table) {
      table.style.alignSelf = "start";
      table.style.fontSize = "0.8rem";
      table.querySelectorAll("th, td").forEach(function (c) { c.style.padding = "0.08rem 0.4rem"; });
      return table;
    }

    // ---------------------------------------------------------------------------------------- controls
    const form = el("form", { className: "chart-controls explorer-controls", "aria-label": "Break-even settings" });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });

    const slider = el("input", { type: "range", id: id("bandwidth"), name: "bandwidth", min: String(SLIDER[0]),
      max: String(SLIDER[1]), step: String(SLIDER[2]), value: String(position(state.bandwidth)) });
    // Its thumb exactly at the state's bandwidth (a recorded point is off the slider's step grid).
    if (window.ExplorerState) window.ExplorerState.place(slider, position(state.bandwidth));
    const sliderOut = el("output", { for: id("bandwidth"), id: id("bandwidth-value") });
    form.appendChild(el("span", { className: "explorer-field" },
      [el("label", { for: id("bandwidth"), text: "WAN bandwidth (log scale)" }), slider, sliderOut]));

    const pointSelect = el("select", { id: id("point"), name: "point" });
    form.appendChild(el("span", { className: "explorer-field" },
      [el("label", { for: id("point"), text: "Recorded point" }), pointSelect]));

    function radios(name, legend, options, value) {
      const set = el("fieldset", { className: "explorer-radios" }, [el("legend", { text: legend })]);
      options.forEach(function (o) {
        const rid = id(name + "-" + o[0]);
        const r = el("input", { type: "radio", id: rid, name: id(name), value: o[0] });
        r.checked = o[0] === value;
        set.appendChild(r);
        set.appendChild(el("label", { for: rid, text: o[1] }));
      });
      form.appendChild(set);
      return set;
    }
    const basisSet = radios("basis", "Steps of E and E′", [["e", "E's"], ["c", "the exact band's"]], state.basis);
    const budgetSet = radios("budget", "Budget of E and E′", ["free", "low", "high"].map(function (b) {
      return [b, "[" + b + "]"];
    }), state.budget);
    const meanBox = el("input", { type: "checkbox", id: id("mean"), name: "mean" });
    meanBox.checked = state.mean;
    form.appendChild(el("span", { className: "explorer-field explorer-check" },
      [meanBox, el("label", { for: id("mean"), text: "Steps as the seeds' unrounded mean" })]));

    // ---------------------------------------------------------------------------------------- outputs
    const outs = {};
    function cell(key, tag) {
      const c = el(tag || "td", { "data-out": key });
      outs[key] = c;
      return c;
    }
    // Variants across, so the table stays short.
    const timeBody = el("tbody");
    [["steps", "Steps"], ["step", "Step"], ["time", "Time"]].forEach(function (row) {
      timeBody.appendChild(el("tr", {}, [el("th", { scope: "row", text: row[1] })].concat(
        variants.map(function (v) { return cell(row[0] + "-" + v.id); }))));
    });
    const meanNote = el("span");
    const timeCaption = el("caption", {}, [document.createTextNode("At "), cell("bandwidth", "span"), meanNote,
      document.createTextNode("; fastest: "), cell("fastest", "span")]);
    const timeTable = el("table", { className: "explorer-values" }, [
      timeCaption,
      el("thead", {}, [el("tr", {}, [el("td")].concat(variants.map(function (v) {
        return el("th", { scope: "col", text: v.name, title: v.label });
      })))]),
      timeBody,
    ]);

    // One row per pair; the in-transit pairs' basis follows the steps chosen.
    const pairRows = {};
    const crossBody = el("tbody");
    function pairRow(pid) {
      if (pairRows[pid]) return pairRows[pid];
      const head = el("th", { scope: "row" });
      const row = el("tr", { "data-pair": pid }, [head, cell("cross-" + pid), cell("gbits-" + pid), cell("wins-" + pid)]);
      row.querySelectorAll("th, td").forEach(function (c) { c.style.padding = "0.08rem 0.4rem"; });
      crossBody.appendChild(row);
      pairRows[pid] = head;
      return head;
    }
    const crossTable = compact(el("table", { className: "explorer-values" }, [
      el("caption", { text: "Break-evens, " + port.grouped(Math.pow(10, SLIDER[0]), 1) + " to " +
        port.grouped(Math.pow(10, SLIDER[1])) + " GB/s" }),
      el("thead", {}, [el("tr", {}, [el("th", { scope: "col", text: "Challenger vs incumbent" }),
        el("th", { scope: "col", text: "Crossing" }), el("th", { scope: "col", text: "Gb/s" }),
        el("th", { scope: "col", text: "Wins" })])]),
      crossBody,
    ]));

    const plot = el("div", { className: "explorer-plot", id: id("plot") });
    // The lines, each a checkbox that shows or hides it (keyboard-operable; the chart has no Plotly legend); the
    // break-even marks have theirs with the settings.
    const hidden = new Set();
    const legend = window.Charts.toggles({
      id: id("show"), legend: "Lines shown", hidden: hidden,
      items: variants.map(function (v) {
        return { key: v.id, label: v.name, color: COLORS[v.id], dash: v.id === "Cp" || v.id === "Ep" };
      }),
      onChange: function () { update(false); },
    });
    // Compact, so the whole explorer fits a 16:9 slide: the fieldset's legend floated into the row of checkboxes
    // (a floated legend is laid out as one more item of the row, not on the border).
    legend.style.fontSize = "0.75rem";
    legend.style.gap = "0 0.55rem";
    legend.style.padding = "0.1rem 0.4rem";
    legend.style.margin = "0 0 0.3rem";
    legend.querySelector("legend").style.float = "left";
    legend.querySelectorAll("label").forEach(function (l, i) { l.title = variants[i].label; });
    // The break-even marks shown or not, with the settings.
    const marksBox = el("input", { type: "checkbox", id: id("marks"), name: "marks" });
    marksBox.checked = true;
    marksBox.addEventListener("change", function () {
      if (marksBox.checked) hidden.delete("marks"); else hidden.add("marks");
      update(false);
    });
    form.appendChild(el("span", { className: "explorer-field explorer-check" },
      [marksBox, el("label", { for: id("marks"), text: "◇ Break-even marks" })]));
    // The chart and the times on the left, the break-evens beside them where there is room (the figure stays
    // within a 16:9 slide).
    const times = el("div", { "aria-live": "polite" }, [compact(timeTable)]);
    const left = el("div", {}, [legend, plot, times]);
    const side = el("div", { "aria-live": "polite" }, [crossTable]);
    const body = el("div", {}, [left, side]);
    body.style.display = "flex";
    body.style.flexWrap = "wrap";
    body.style.gap = "0.5rem 1rem";
    body.style.alignItems = "flex-start";
    left.style.flex = "3 1 26rem";
    left.style.minWidth = "0";
    side.style.flex = "2 1 19rem";
    const caption = el("figcaption", {
      text: "Time to " + data.target + " on " + data.topology + " at the 100 GbE latency: only the sync's WAN rounds " +
        "depend on the bandwidth. [low] and [high] charge the module's transform at " +
        port.grouped(data.budgets.low / 1e9) + " and " + port.grouped(data.budgets.high / 1e9) + " GFLOP/s. " +
        "Computed in your browser from the simulation results (§2, §7a).",
    });

    holder.textContent = "";
    holder.appendChild(form);
    holder.appendChild(body);
    holder.appendChild(caption);

    // ---------------------------------------------------------------------------------------- state
    const cache = {};
    // The curves and break-evens move only with the steps, the budget and the mean: computed once per choice.
    function fixedPart() {
      const key = state.basis + "|" + state.budget + "|" + state.mean;
      if (!cache[key]) {
        cache[key] = {
          curves: variants.map(function (v) {
            return port.curve(model, v.id, state.budget, state.basis, state.mean, data.curve_points);
          }),
          crossings: port.crossings(model, state.basis, state.budget, state.mean),
        };
        cache[key].traces = fixedTraces(cache[key]);
        cache[key].range = timeRange(cache[key]);
      }
      return cache[key];
    }

    function fillPoints(f) {
      const chosen = state.point;
      pointSelect.textContent = "";
      data.points.forEach(function (p) {
        pointSelect.appendChild(el("option", { value: "p:" + p.key,
          text: p.label + " (" + port.unit(p.bandwidth / 1e9, 2, "GB/s") + ")" }));
      });
      f.crossings.forEach(function (c) {
        if (c.value === null) return;
        pointSelect.appendChild(el("option", { value: "x:" + c.id, text: c.label + ": " + c.text.cross }));
      });
      pointSelect.value = chosen || "";
      if (!chosen || pointSelect.value !== chosen) { pointSelect.selectedIndex = -1; state.point = null; }
    }

    function pointBandwidth(value, f) {
      if (value.indexOf("p:") === 0) {
        const p = data.points.filter(function (q) { return "p:" + q.key === value; })[0];
        return p ? p.bandwidth : null;
      }
      const c = f.crossings.filter(function (q) { return "x:" + q.id === value; })[0];
      return c ? c.value : null;
    }

    // ---------------------------------------------------------------------------------------- drawing
    // Every trace keeps its attributes from one setting to the next and only its numbers change, so that
    // Charts.update redraws the traces alone: the six curves and the break-even marks (new numbers with the steps,
    // the budget and the mean), then the current bandwidth as a line and a dot on each curve (new numbers with the
    // bandwidth), with the recorded links as dotted lines. A hidden line or mark has no points. The axes' ranges are
    // fixed: the bandwidth's is the slider's, the time's moves only with the curves.
    function fixedTraces(f) {
      const out = variants.map(function (v, i) {
        const hyp = v.id === "Cp" || v.id === "Ep";
        return {
          type: "scatter", mode: "lines", x: f.curves[i].x.map(function (x) { return x / 1e9; }), y: f.curves[i].y,
          name: v.name, line: { color: COLORS[v.id], width: 2, dash: hyp ? "dot" : "solid" },
          hovertemplate: v.name + ": %{y:.2f} s at %{x:.2f} GB/s<extra></extra>",
        };
      });
      const marks = f.crossings.filter(function (c) { return c.value !== null; });
      out.push({
        type: "scatter", mode: "markers", name: "Break-even",
        x: marks.map(function (c) { return c.value / 1e9; }),
        y: marks.map(function (c) {
          return port.timeAt(model, c.challenger, state.budget, c.basis, state.mean, c.value);
        }),
        text: marks.map(function (c) { return c.label + ": " + c.text.cross + ", wins " + c.wins; }),
        marker: { symbol: "diamond", size: 9, color: "#fff", line: { color: "#222", width: 1.5 } },
        hovertemplate: "%{text}<extra></extra>",
      });
      return out;
    }

    // The time axis (log) in whole tenths of a decade around every curve.
    function timeRange(f) {
      let lo = Infinity, hi = -Infinity;
      f.curves.forEach(function (c) {
        c.y.forEach(function (y) { if (y > 0) { lo = Math.min(lo, y); hi = Math.max(hi, y); } });
      });
      return [Math.floor(Math.log10(lo) * 10 - 1) / 10, Math.ceil(Math.log10(hi) * 10 + 1) / 10];
    }

    function traces(o, f) {
      // Copies: Plotly writes into the traces it is given (an update's numbers go into the ones it drew).
      const out = f.traces.map(function (t, i) {
        const key = i < variants.length ? variants[i].id : "marks";
        return Object.assign({}, t, { y: hidden.has(key) ? t.y.map(function () { return null; }) : t.y });
      });
      const x = o.bandwidth / 1e9;
      const lo = Math.pow(10, f.range[0]), hi = Math.pow(10, f.range[1]);
      out.unshift({ // under the curves
        type: "scatter", mode: "lines", name: "Recorded links", x: LINKS_X, hoverinfo: "skip",
        y: data.points.reduce(function (a) { return a.concat([lo, hi, null]); }, []),
        line: { color: "#bbb", width: 1, dash: "dot" },
      });
      out.push({
        type: "scatter", mode: "lines", name: "This bandwidth", x: [x, x], y: [lo, hi], hoverinfo: "skip",
        line: { color: "#444", width: 1.5 },
      });
      out.push({
        type: "scatter", mode: "markers", name: "At this bandwidth", x: variants.map(function () { return x; }),
        y: variants.map(function (v) { return hidden.has(v.id) ? null : o.rows[v.id].time_s; }),
        hovertext: variants.map(function (v) { return v.name + ": " + o.text["time-" + v.id]; }),
        marker: { size: 11, color: DOT_COLORS }, hovertemplate: "%{hovertext}<extra></extra>",
      });
      return out;
    }
    const DOT_COLORS = variants.map(function (v) { return COLORS[v.id]; });
    // The recorded links as one dotted trace, a gap between its lines (as layout shapes, Plotly would draw them again
    // on every update).
    const LINKS_X = data.points.reduce(function (a, p) {
      return a.concat([p.bandwidth / 1e9, p.bandwidth / 1e9, null]);
    }, []);

    // A new object each time: Plotly writes into the layout it is given.
    function layout(f) {
      return {
        height: 285,
        margin: { l: 55, r: 20, t: 10, b: 45 },
        hovermode: "closest",
        showlegend: false,
        dragmode: false,
        xaxis: { type: "log", range: [SLIDER[0], SLIDER[1]], dtick: 1, fixedrange: true, tickangle: 0,
          title: { text: "Inter-DC bandwidth, GB/s (┆ a recorded link)", font: { size: 12 } } },
        yaxis: { type: "log", range: f.range, dtick: 1, fixedrange: true,
          title: { text: "Seconds to " + data.target, font: { size: 12 } } },
      };
    }

    // Only what changed is written: a bandwidth move rewrites a few cells, not the break-even table.
    function put(node, text) { if (node.textContent !== text) node.textContent = text; }
    let shown = null;
    function show(o, f) {
      Object.keys(o.text).forEach(function (k) { if (outs[k]) put(outs[k], o.text[k]); });
      put(sliderOut, o.text.bandwidth + " (" + o.text.gbits + ")");
      slider.setAttribute("aria-valuetext", o.text.bandwidth);
      put(meanNote, state.mean ? ", mean steps" : "");
      if (shown === f) return;
      shown = f;
      f.crossings.forEach(function (c) {
        put(pairRow(c.id), c.label);
        put(outs["cross-" + c.id], c.text.cross);
        put(outs["gbits-" + c.id], c.text.gbits);
        put(outs["wins-" + c.id], c.text.wins);
      });
    }

    function compute() {
      return port.outputs(model, { bandwidth: state.bandwidth, basis: state.basis, budget: state.budget,
        mean: state.mean });
    }

    // The chart first, then the printed values: Plotly measures the page while it draws, and text written before
    // it would have to be laid out first.
    function update(refill) {
      const f = fixedPart();
      const o = compute();
      const drawn = window.Charts.update(plot, traces(o, f), layout(f), PLOT_CONFIG);
      if (refill) fillPoints(f);
      show(o, f);
      return drawn;
    }

    slider.addEventListener("input", function () {
      state.bandwidth = port.bandwidthAt(Number(slider.value));
      state.point = null;
      pointSelect.selectedIndex = -1;
      update(false);
    });
    pointSelect.addEventListener("change", function () {
      const bw = pointBandwidth(pointSelect.value, fixedPart());
      if (bw === null) return;
      state.point = pointSelect.value;
      state.bandwidth = bw;
      if (window.ExplorerState) window.ExplorerState.place(slider, position(bw));
      else slider.value = String(position(bw));
      update(false);
    });
    basisSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.type === "radio") { state.basis = ev.target.value; update(true); }
    });
    budgetSet.addEventListener("change", function (ev) {
      if (ev.target && ev.target.type === "radio") { state.budget = ev.target.value; update(true); }
    });
    meanBox.addEventListener("change", function () { state.mean = meanBox.checked; update(true); });

    // The CSV's figure keys: at a recorded point, with E's steps and whole steps, each variant's dot is the
    // registered time to the target, sim.time_to_target.POINT.VARIANT (.BUDGET for E and E′; simulation results §2).
    function figures(trace, j) {
      if (trace.name !== "At this bandwidth" || state.basis !== "e" || state.mean) return null;
      const p = data.points.filter(function (q) { return q.bandwidth === state.bandwidth; })[0];
      const v = variants[j];
      if (!p || !v) return null;
      return "sim.time_to_target." + p.key + "." + v.id + (v.id === "E" || v.id === "Ep" ? "." + state.budget : "");
    }
    return {
      plot: plot,
      figures: figures,
      first: function () {
        const f0 = fixedPart();
        const home = data.points.filter(function (p) { return p.key === data.home; })[0];
        if (home && home.bandwidth === state.bandwidth) state.point = "p:" + home.key;
        fillPoints(f0);
        const o0 = compute();
        show(o0, f0);
        return [traces(o0, f0), layout(f0), PLOT_CONFIG];
      },
    };
  });
})();
