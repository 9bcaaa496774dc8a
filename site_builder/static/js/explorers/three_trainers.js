// Three trainers explorer (FOptTrn deck 02): the loss on the hardware over training of in-silico,
// physics-aware and in-situ training, at the fabrication error and read-out noise the reader picks
// from the simulated grid. The payload (<script id="data-three_trainers">) holds every curve of the grid
// (data/trainers/results.json); the grid point, the final losses and their text come from the port
// (assets/js/ports/three_trainers.js), which the tests hold equal to the Python model. No inline
// script or handler: it runs under a strict CSP.
(function () {
  "use strict";
  const NAME = "three_trainers";
  if (!window.Charts || !window.Charts.mount) return;
  window.Charts.mount(NAME, { port: "threeTrainers" }, function (m) {
    const holder = m.holder;
    const port = m.port;
    const data = m.data;
    const PLOT_CONFIG = { displaylogo: false, responsive: true, displayModeBar: false };
    // Series colours: the site's palette (tests/browser/test_palette.py holds every pair of one chart ΔE 12 apart
    // under simulated deuteranopia, protanopia and tritanopia, in both colour schemes).
    const COLORS = { insilico: "#cb560d", physics: "#009968", insitu: "#086191" };
    const TWIN_NAME = "In silico, on its twin";

    // One y range for every setting, so that moving a control moves the curves, not the axis.
    let lo = Infinity;
    let hi = -Infinity;
    function extend(curve) {
      curve.forEach(function (y) { if (y < lo) lo = y; if (y > hi) hi = y; });
    }
    extend(data.twin);
    data.points.forEach(function (p) { Object.keys(p.loss).forEach(function (k) { extend(p.loss[k]); }); });
    const yRange = [Math.log10(lo) - 0.1, Math.log10(hi) + 0.1];

    const el = window.Charts.el; // an element with its properties and children

    // ---------------------------------------------------------------------------------------- controls
    const form = el("form", { className: "chart-controls explorer-controls", "aria-label": "Explorer settings" });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });

    function levelControl(key, label, levels, initial) {
      const id = NAME + "-" + key;
      const input = el("input", {
        type: "range", id: id, name: key, min: "0", max: String(levels.length - 1), step: "1",
        value: String(levels.indexOf(initial)),
      });
      const out = el("output", { for: id, "data-out": key });
      form.appendChild(el("span", { className: "explorer-field" }, [el("label", { for: id, text: label }), input, out]));
      return { input: input, out: out, levels: levels };
    }
    const fab = levelControl("fab", "Fabrication error", data.fab_levels, data.default.fab);
    const noise = levelControl("noise", "Read-out noise", data.noise_levels, data.default.noise);

    // ---------------------------------------------------------------------------------------- outputs
    const plot = el("div", { className: "explorer-plot", id: NAME + "-plot" });
    const outs = {};
    const body = el("tbody");
    data.trainers.concat([{ id: "twin", name: TWIN_NAME }]).forEach(function (t) {
      const cell = el("td", { "data-out": t.id });
      outs[t.id] = cell;
      body.appendChild(el("tr", {}, [el("th", { scope: "row", text: t.name }), cell]));
    });
    const table = el("table", { className: "explorer-values" }, [
      el("caption", { text: "Final loss on the hardware (mean of steps " + data.final_steps + ")" }), body,
    ]);
    const outputs = el("div", { className: "explorer-outputs", "aria-live": "polite" }, [table]);
    const caption = el("figcaption", {
      text: "Loss on the hardware (mean squared error of the output intensities, read without noise) over the " +
        "gradient steps of the simulated interferometer mesh of results §1. In silico trains the twin only; " +
        "physics-aware reads the output from the hardware and the gradient from the twin; in situ reads both " +
        "from the hardware. Dashed: in silico on its own twin.",
    });

    // The series, each a checkbox beside the chart (the chart has no Plotly legend): a hidden one is drawn with
    // no points, so that showing or hiding it is a fast update like any other move.
    const hidden = new Set();
    const toggles = window.Charts.toggles({
      id: NAME + "-series", legend: "Series shown", hidden: hidden,
      items: [{ key: "twin", label: TWIN_NAME, color: "#8d99ae", dash: true }].concat(data.trainers.map(function (t) {
        return { key: t.id, label: t.name, color: COLORS[t.id] };
      })),
      onChange: function () { update(); },
    });

    holder.textContent = "";
    holder.appendChild(form);
    holder.appendChild(toggles);
    holder.appendChild(plot);
    holder.appendChild(outputs);
    holder.appendChild(caption);

    // ---------------------------------------------------------------------------------------- drawing
    function setting() {
      return { fab: fab.levels[Number(fab.input.value)], noise: noise.levels[Number(noise.input.value)] };
    }

    const NONE = [];
    function traces(point) {
      const out = [{
        type: "scatter", mode: "lines", x: hidden.has("twin") ? NONE : data.steps, y: hidden.has("twin") ? NONE : data.twin,
        name: TWIN_NAME,
        line: { color: "#8d99ae", width: 1.5, dash: "dash" },
        hovertemplate: "step %{x}: %{y:.2e}<extra>" + TWIN_NAME + "</extra>",
      }];
      data.trainers.forEach(function (t) {
        out.push({
          type: "scatter", mode: "lines", x: hidden.has(t.id) ? NONE : data.steps, y: hidden.has(t.id) ? NONE : point.loss[t.id],
          name: t.name,
          line: { color: COLORS[t.id], width: 2.5 },
          hovertemplate: "step %{x}: %{y:.2e}<extra>" + t.name + "</extra>",
        });
      });
      return out;
    }

    // Fixed ranges and no Plotly legend (the checkboxes name the series): every move is a fast update of the
    // curves alone (Charts.update).
    const LAYOUT = {
      showlegend: false,
      margin: { l: 64, r: 10, t: 10, b: 50 },
      height: 380,
      xaxis: { title: { text: "Gradient step" }, zeroline: false, range: [data.steps[0], data.steps[data.steps.length - 1]] },
      yaxis: { title: { text: "Loss on the hardware" }, type: "log", range: yRange, dtick: 1, exponentformat: "power" },
      hovermode: "closest",
    };

    function show(s, point) {
      fab.out.textContent = s.fab + "%";
      noise.out.textContent = s.noise + "%";
      fab.input.setAttribute("aria-valuetext", s.fab + "%");
      noise.input.setAttribute("aria-valuetext", s.noise + "%");
      const finals = port.finals(point.loss, data.tail);
      Object.keys(finals).forEach(function (k) { outs[k].textContent = finals[k].text; });
      outs.twin.textContent = port.finalOf(data.twin, data.tail).text;
    }

    function current() {
      const s = setting();
      const i = port.pointIndex(data.points, s.fab, s.noise);
      return { s: s, point: data.points[i] };
    }

    function update() {
      const c = current();
      show(c.s, c.point);
      return window.Charts.update(plot, traces(c.point), LAYOUT, PLOT_CONFIG);
    }

    fab.input.addEventListener("input", update);
    noise.input.addEventListener("input", update);

    // The CSV's figure keys (trainers results §3): at the curves' recorded steps of that table, the twin's curve
    // (the same at every setting: it never meets the hardware) is trn.curve.STEP.twin, and at the first setting
    // each trainer's curve is trn.curve.STEP.TRAINER. At any other setting a trainer's points are no figure.
    function figures(trace, j) {
      const step = trace.x[j];
      if (data.curve_steps.indexOf(step) < 0) return null;
      if (trace.name === TWIN_NAME) return "trn.curve." + step + ".twin";
      const t = data.trainers.filter(function (q) { return q.name === trace.name; })[0];
      const s = setting();
      if (!t || s.fab !== data.default.fab || s.noise !== data.default.noise) return null;
      return "trn.curve." + step + "." + t.id;
    }

    return {
      plot: plot,
      figures: figures,
      first: function () {
        const first = current();
        show(first.s, first.point);
        return [traces(first.point), LAYOUT, PLOT_CONFIG];
      },
    };
  });
})();
