// Charts' theme, the first of the chart files (charts/theme.js, fast.js, a11y.js, mount.js, loaded in that order
// after Plotly and before explorer_state.js and the explorers' page code, on pages with a chart only). It makes
// window.Charts and wraps Plotly.newPlot and Plotly.react so that every layout an explorer passes
//
// * follows the page's colour scheme: transparent paper, text and grid from the CSS variables (and again when the
//   scheme changes: the header's toggle or the system's setting);
// * never shows Plotly's toolbar (displayModeBar: false, whatever the explorer passed);
// * on a narrow screen (plot under 600 px) drops Plotly's legend, whose entries would cover the axis: the series
//   are then named by the chart's own toggles (an explorer's `.explorer-toggles`, else the ones a11y.js makes);
// * lets tick labels overflow (ticklabeloverflow "allow", unless the explorer set it): Plotly would otherwise
//   measure every label on every redraw, a forced layout each time;
// * on a presented slide (inside reveal's .slides), sets the plot's text at the slide's size: 16 px at least for
//   ticks, axis titles, legend and hover (an explorer's smaller sizes included), with the axes' margins grown to
//   fit (automargin). Entering or leaving present mode redraws each plot with the layout its explorer last gave.
//
// window.Charts here:
// * Charts.roundUp(x): the smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k at or above x, for the top of a
//   fixed axis range.
// * Charts.el(tag, {text, className, other attributes}, [children]): a new element (string children as text),
//   what every explorer builds its controls with.
// * Charts.core: what the other chart files share (each plot's state, the layout, data and config as Plotly gets
//   them); not for explorers. fast.js sets Charts.core.fast (its keyOf, prime and settle), which the wrapped
//   Plotly.newPlot and Plotly.react use when it is there.
(function () {
  "use strict";
  if (typeof Plotly === "undefined") return;
  const NARROW = 600;
  const SLIDE_TEXT = 16; // px: the smallest text of a presented slide (deck.css)
  const state = new WeakMap(); // plot div -> { args: [data, layout, config], hidden: Set of series, own: bool }

  function css(name, fallback) {
    const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return v || fallback;
  }
  // Read once and again when the scheme changes, not on every update (getComputedStyle after the explorer has
  // written its outputs would force a style recalculation per move).
  let scheme = null;
  function colours() {
    if (!scheme) scheme = { ink: css("--ink", "#1b1f24"), grid: css("--grid", "#e4e7eb"), axis: css("--muted", "#5b6570") };
    return scheme;
  }
  function axisNames(layout) {
    const names = Object.keys(layout || {}).filter(function (k) { return /^[xy]axis\d*$/.test(k); });
    if (names.indexOf("xaxis") < 0) names.push("xaxis");
    if (names.indexOf("yaxis") < 0) names.push("yaxis");
    return names;
  }
  // Cached per plot until the window is resized (reading clientWidth after the explorer has written its outputs
  // would force a layout per move).
  let widths = new WeakMap();
  function narrow(gd) {
    let w = widths.get(gd);
    if (w === undefined) {
      w = gd.clientWidth || (gd.parentNode && gd.parentNode.clientWidth) || window.innerWidth;
      if (w) widths.set(gd, w);
    }
    return w < NARROW;
  }
  function groupOf(t) { return t.legendgroup || t.name || ""; }
  function onSlide(gd) { return !!(gd && gd.closest && gd.closest(".reveal .slides")); }
  function atLeast(font) {
    const f = Object.assign({}, font);
    f.size = Math.max(f.size || 0, SLIDE_TEXT);
    return f;
  }
  // The layout for a slide: every text of the plot at least SLIDE_TEXT, the axes' margins grown to hold it.
  function forSlide(l) {
    l.font = atLeast(l.font);
    l.hoverlabel = Object.assign({}, l.hoverlabel, { font: atLeast(l.hoverlabel && l.hoverlabel.font) });
    if (l.legend) l.legend = Object.assign({}, l.legend, { font: atLeast(l.legend.font) });
    axisNames(l).forEach(function (k) {
      const a = Object.assign({}, l[k], { automargin: true, tickfont: atLeast(l[k] && l[k].tickfont) });
      if (a.title && typeof a.title === "object") a.title = Object.assign({}, a.title, { font: atLeast(a.title.font) });
      l[k] = a;
    });
    if (Array.isArray(l.annotations)) {
      l.annotations = l.annotations.map(function (n) { return Object.assign({}, n, { font: atLeast(n.font) }); });
    }
  }

  function adaptLayout(gd, layout) {
    const l = Object.assign({}, layout || {});
    const c = colours();
    l.paper_bgcolor = "rgba(0,0,0,0)";
    l.plot_bgcolor = "rgba(0,0,0,0)";
    l.font = Object.assign({}, l.font, { color: c.ink });
    axisNames(l).forEach(function (k) {
      // ticklabeloverflow "allow": Plotly would otherwise measure every tick label (getBoundingClientRect, a
      // forced layout) on every redraw to hide the ones past the plot's edge, which the margins already leave room
      // for.
      l[k] = Object.assign({ gridcolor: c.grid, zerolinecolor: c.axis, linecolor: c.axis, ticklabeloverflow: "allow" },
        l[k]);
    });
    if (narrow(gd)) l.showlegend = false;
    if (onSlide(gd)) forSlide(l);
    return l;
  }
  function adaptData(gd, data) {
    const s = state.get(gd);
    if (Array.isArray(data) && onSlide(gd)) { // a trace's own text (labels by its points) at the slide's size
      data = data.map(function (t) { return t && t.textfont ? Object.assign({}, t, { textfont: atLeast(t.textfont) }) : t; });
    }
    if (!s || !s.hidden.size || !Array.isArray(data)) return data;
    return data.map(function (t) { return s.hidden.has(groupOf(t)) ? Object.assign({}, t, { visible: false }) : t; });
  }
  // A trace with no points (x or y given and empty) goes to Plotly as hidden (visible: false), which Plotly
  // makes of it anyway, but only after working out most of its defaults, as much as for a drawn trace, on every
  // update; the others as shown (visible: true unless set), so that a trace shown again by Plotly.animate (which
  // merges the new attributes into the old) is.
  function noPoints(t) {
    return ["x", "y"].some(function (k) { return t[k] !== undefined && t[k] !== null && t[k].length === 0; });
  }
  function forPlotly(data) {
    if (!Array.isArray(data)) return data;
    return data.map(function (t) {
      if (!t || typeof t !== "object") return t;
      if (noPoints(t)) return t.visible === false ? t : Object.assign({}, t, { visible: false });
      return t.visible === undefined ? Object.assign({}, t, { visible: true }) : t;
    });
  }
  function adaptConfig(config) { return Object.assign({}, config, { displayModeBar: false, displaylogo: false }); }

  function wrap(original) {
    return function (gd, data, layout, config) {
      const el = typeof gd === "string" ? document.getElementById(gd) : gd;
      if (data && !Array.isArray(data) && typeof data === "object") { // newPlot(gd, {data, layout, config})
        const fig = data;
        const st = state.get(el);
        if (st) st.key = null;
        return original.call(this, gd, Object.assign({}, fig, {
          data: forPlotly(adaptData(el, fig.data)), layout: adaptLayout(el, fig.layout),
          config: adaptConfig(fig.config) }));
      }
      const fast = core.fast;
      const s = state.get(el) || { hidden: new Set(), own: false };
      s.args = [data, layout, config];
      s.slide = onSlide(el);
      state.set(el, s);
      const d = adaptData(el, data), l = adaptLayout(el, layout), c = adaptConfig(config);
      s.key = fast ? fast.keyOf(d, l, c) : null;
      s.data = d;
      s.layout = l;
      const drawn = original.call(this, gd, forPlotly(d), l, c);
      if (!s.key || !drawn || typeof drawn.then !== "function") return drawn;
      // the defaults of the traces with no points now, for Charts.update's direct path (an update asked for
      // meanwhile is drawn once that is done)
      return drawn.then(function (g) {
        const primed = fast.prime(el);
        return primed ? fast.settle(el, s, primed).then(function () { return g; }) : g;
      });
    };
  }
  Plotly.newPlot = wrap(Plotly.newPlot);
  Plotly.react = wrap(Plotly.react);

  // The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k at or above x: the top of a fixed axis range.
  function roundUp(x) {
    if (!(x > 0) || !isFinite(x)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(x)));
    const steps = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];
    for (let i = 0; i < steps.length; i++) if (steps[i] * p >= x * (1 - 1e-12)) return steps[i] * p;
    return 10 * p;
  }
  function node(tag, props, children) {
    const e = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) {
      if (k === "text") e.textContent = props[k];
      else if (k === "className") e.className = props[k];
      else e.setAttribute(k, props[k]);
    });
    (children || []).forEach(function (c) { e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  const core = { state: state, axisNames: axisNames, groupOf: groupOf, adaptLayout: adaptLayout, adaptData: adaptData,
    adaptConfig: adaptConfig, forPlotly: forPlotly, noPoints: noPoints, fast: null };
  window.Charts = { roundUp: roundUp, el: node, core: core };

  function plots() { return Array.from(document.querySelectorAll("figure.chart .js-plotly-plot")); }

  // The colour scheme changed: restyle each drawn plot's paper, text and axes.
  function recolour() {
    scheme = null;
    const c = colours();
    plots().forEach(function (gd) {
      if (!gd.layout) return;
      const u = { paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)", "font.color": c.ink };
      axisNames(gd.layout).forEach(function (k) {
        u[k + ".gridcolor"] = c.grid; u[k + ".zerolinecolor"] = c.axis; u[k + ".linecolor"] = c.axis;
      });
      Plotly.relayout(gd, u);
    });
  }
  window.addEventListener("themechange", function () { requestAnimationFrame(recolour); });
  if (window.matchMedia) {
    const m = window.matchMedia("(prefers-color-scheme: dark)");
    if (m.addEventListener) m.addEventListener("change", function () { requestAnimationFrame(recolour); });
  }
  // Crossing the narrow width: the legend goes or comes back.
  let resizing = 0;
  window.addEventListener("resize", function () {
    widths = new WeakMap();
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      plots().forEach(function (gd) {
        if (!gd.layout || gd.offsetParent === null) return;
        const s = state.get(gd);
        // moved onto a slide or back into the article: drawn again from its explorer's last layout
        if (s && s.args && s.slide !== onSlide(gd)) { Plotly.react(gd, s.args[0], s.args[1], s.args[2]); return; }
        const want = narrow(gd) ? false : !(s && s.args && s.args[1] && s.args[1].showlegend === false);
        if ((gd.layout.showlegend !== false) !== want) Plotly.relayout(gd, { showlegend: want });
      });
    }, 150);
  });

})();
