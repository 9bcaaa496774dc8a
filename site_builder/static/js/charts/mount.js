// One lifecycle for every explorer (charts/mount.js, the last of the chart files, before explorer_state.js and the
// explorers' page code).
//
// Charts.mount(name, {port}, setup) -> Promise, or null when the page cannot show the explorer:
// * finds the explorer's figure (figure.chart#chart-NAME) and its payload (<script id="data-NAME">, which site.js
//   makes from the site's explorers/NAME.json before it adds the explorer's code) and, when
//   `port` is given, its port (window.Ports[port]); without them, null and nothing is drawn;
// * calls setup({name, holder, data, port, el}) once: data is the parsed payload, el is Charts.el. The setup builds
//   the controls and outputs into holder and wires them (each move redraws through Charts.update), and returns
//   {plot, first, resized, figures}:
//   - plot: the element Plotly draws into (inside holder);
//   - first(): the first draw's [data, layout, config], called once, after the setup;
//   - resized() (optional): called before the plot is fitted to a new size (an explorer whose layout follows the
//     plot's width redraws from it);
//   - figures(trace, j) (optional): which points are registered figures, for the CSV (ExplorerState.figures);
// * keeps each radio button or check box with its label (the label that follows it, for its id) as one item of its
//   fieldset (a span.explorer-choice around the two), so that on a narrow screen they wrap together (boxes already
//   paired, in a span.explorer-check, stay as they are);
// * draws it (Plotly.newPlot), then marks the figure drawn (data-ready="true");
// * fits every drawn plot to its box when the window is resized (a deck dispatches `resize` when it shows a slide)
//   and when reveal.js shows a slide or leaves the overview (its `slidechanged`, `ready` and `overviewhidden`
//   events), for the plots that are shown (a plot in a hidden slide is fitted when its slide is shown);
// * after each draw (the first, every update, every fit to a new size) dispatches on the figure the bubbling
//   CustomEvent "chart:drawn", detail {name, reason: "first" | "update" | "resize"}, once the drawing is done,
//   so that a deck can fit its slide to the chart (a11y.js sends it too, reason "table", when the chart's data
//   table is opened or closed).
(function () {
  "use strict";
  if (typeof Plotly === "undefined" || !window.Charts) return;
  const mounted = []; // {name, holder, plot, resized, reason}

  function drawn(m, reason) {
    m.holder.dispatchEvent(new CustomEvent("chart:drawn", { bubbles: true, detail: { name: m.name, reason: reason } }));
  }

  function shown(plot) { return plot.offsetParent !== null && plot.classList.contains("js-plotly-plot"); }

  function fit(m) {
    if (!shown(m.plot)) return;
    if (m.resized) m.resized();
    m.reason = "resize";
    const p = Plotly.Plots.resize(m.plot);
    if (p && typeof p.catch === "function") p.catch(function () {});
  }
  function fitAll(within) {
    mounted.forEach(function (m) { if (!within || within.contains(m.plot)) fit(m); });
  }

  function pairs(holder) {
    holder.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (box) {
      const label = box.nextElementSibling;
      const parent = box.parentNode;
      if (!box.id || !label || label.tagName !== "LABEL" || label.htmlFor !== box.id) return;
      if (parent.classList.contains("explorer-check") || parent.classList.contains("explorer-choice")) return;
      const pair = document.createElement("span");
      pair.className = "explorer-choice";
      parent.insertBefore(pair, box);
      pair.appendChild(box);
      pair.appendChild(label);
    });
  }

  function mount(name, opts, setup) {
    const holder = document.getElementById("chart-" + name);
    const raw = document.getElementById("data-" + name);
    const port = opts && opts.port ? window.Ports && window.Ports[opts.port] : null;
    if (!holder || !raw || (opts && opts.port && !port)) return null;
    const spec = setup({ name: name, holder: holder, data: JSON.parse(raw.textContent), port: port,
      el: window.Charts.el });
    if (!spec || !spec.plot || typeof spec.first !== "function") return null;
    pairs(holder);
    if (spec.figures && window.ExplorerState) window.ExplorerState.figures(name, spec.figures);
    const m = { name: name, holder: holder, plot: spec.plot, resized: spec.resized || null, reason: "update" };
    mounted.push(m);
    const fig = spec.first();
    return Promise.resolve(Plotly.newPlot(m.plot, fig[0], fig[1], fig[2])).then(function () {
      holder.dataset.ready = "true";
      drawn(m, "first");
      m.plot.on("plotly_afterplot", function () {
        const reason = m.reason;
        m.reason = "update";
        drawn(m, reason);
      });
      return m.plot;
    });
  }
  window.Charts.mount = mount;

  window.addEventListener("resize", function () { fitAll(null); });
  // reveal.js's events bubble from its .reveal element; the slide shown is event.currentSlide.
  ["slidechanged", "ready", "overviewhidden"].forEach(function (type) {
    document.addEventListener(type, function (ev) {
      if (!ev.target || !ev.target.classList || !ev.target.classList.contains("reveal")) return;
      fitAll(ev.currentSlide || null);
    });
  });
})();
