// What every chart shares, whichever explorer draws it. Loaded after Plotly and before the explorers' page code,
// on pages with a chart only. Plotly.newPlot and Plotly.react are wrapped so that every layout an explorer passes
//
// * follows the page's colour scheme: transparent paper, text and grid from the CSS variables (and again when the
//   scheme changes: the header's toggle or the system's setting);
// * never shows Plotly's toolbar (displayModeBar: false, whatever the explorer passed);
// * on a narrow screen (plot under 600 px) drops Plotly's legend, whose entries would cover the axis: the series
//   are then named by the chart's own toggles (an explorer's `.explorer-toggles`, else the ones made here);
// * lets tick labels overflow (ticklabeloverflow "allow", unless the explorer set it): Plotly would otherwise
//   measure every label on every redraw, a forced layout each time.
//
// Once a chart is drawn (figure.chart[data-ready="true"]), it gets a text alternative: the plot is an image named
// by its axes, and a button shows its data as a table, built from the plot's traces when opened (points whose
// value is null are left out). A chart whose series are named only in Plotly's legend gets checkboxes for them
// (keyboard-operable, unlike the legend).
//
// For explorers, window.Charts:
//
// * Charts.update(gd, data, layout, config) -> Promise: use it instead of Plotly.react for the redraw on every
//   move of a control (same arguments; plotly_afterplot is emitted once the redraw is drawn, as with react).
//   The fast path applies when, since the last draw, only the traces' values changed: the same number of
//   traces, each a scatter or a bar, with the same attributes except new numbers in x and y (x and y holding
//   categories must not change), base, customdata, hovertext and text; the same layout and config except the
//   axes' ranges and titles; and every axis a trace uses has a fixed range (layout.[xy]axis.range given, no
//   autorange; a category axis too, e.g. [-0.5, n - 0.5]). Then only what moved is redrawn, in the same task,
//   before the page is painted: no full replot (titles, legend, margins, drag boxes, every axis).
//   - Traces whose values changed (compared with the last call's): Plotly.animate (no transition, no redraw)
//     draws those alone (all of them if there is a bar trace, as Plotly redraws bars all together), and the
//     scatter layer is then tidied as a full redraw would leave it (the drawing of a trace left without points
//     removed, the traces in their order). A trace without points goes to Plotly as hidden (visible: false),
//     which spares Plotly most of its work on it.
//   - An axis range that moved: Plotly.animate takes the new values without drawing, then Plotly.relayout
//     redraws that axis and every trace once.
//   - An axis title whose text alone changed (plain text) is written into the title Plotly drew; any other
//     title change goes through Plotly.relayout (a second pass over every default and every axis redrawn).
//   - Nothing changed: no drawing.
//   plotly_afterplot comes after that drawing, on every move (Plotly 4.1.1 draws the traces synchronously right
//   after its plotly_transitioning event; the amdahl, three-trainers and loss-curves browser tests check the
//   drawn bars, lines and axes against the new data when plotly_afterplot fires, and the loss-curves test that a
//   move leaves the plot drawn as a full redraw would), so scripts/bench_explorers.py times the whole redraw.
//   Anything else falls back to Plotly.react. An update asked for while a fast one is finishing (Plotly.animate
//   settles at the next animation frame) is drawn right after it (only the latest).
//   To stay on the fast path: compute the ranges yourself (a round number above the data; a range that moves
//   costs a redraw of that axis and of every trace), hide a series by emptying its values (x: [], y: [] for a
//   line; null for a bar's segment), not with `visible`, and keep what moves out of the layout's annotations and
//   shapes (a line is a scatter trace; over a category axis, on an overlaying linear axis with a fixed range).
// * Charts.toggles({id, legend, items: [{key, label, color, dash}], hidden: Set, onChange(hidden, key)}) ->
//   a fieldset of checkboxes (ids id-0, id-1, ...; class explorer-toggles, so no others are made here), one per
//   series with its colour swatch (a dashed line when dash), checked when its key is not in `hidden`; a change
//   updates `hidden` and calls onChange. Put it next to the plot and redraw from onChange.
// * Charts.roundUp(x): the smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k at or above x, for the top of a
//   fixed axis range.
// * Charts.el(tag, {text, className, other attributes}, [children]): a new element (string children as text),
//   what every explorer builds its controls with.
(function () {
  "use strict";
  if (typeof Plotly === "undefined") return;
  const NARROW = 600;
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
    return l;
  }
  function adaptData(gd, data) {
    const s = state.get(gd);
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
      const s = state.get(el) || { hidden: new Set(), own: false };
      s.args = [data, layout, config];
      state.set(el, s);
      const d = adaptData(el, data), l = adaptLayout(el, layout), c = adaptConfig(config);
      s.key = keyOf(d, l, c);
      s.data = d;
      s.layout = l;
      return original.call(this, gd, forPlotly(d), l, c);
    };
  }
  Plotly.newPlot = wrap(Plotly.newPlot);
  Plotly.react = wrap(Plotly.react);

  // ---------------------------------------------------------------------------------------- the fast update
  // Charts.update: see the header.
  const FREE = { x: 1, y: 1, base: 1, customdata: 1, hovertext: 1, text: 1 };
  const ANIMATABLE = { scatter: 1, bar: 1 };
  function numeric(a) {
    if (!Array.isArray(a) && !ArrayBuffer.isView(a)) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== null && typeof a[i] !== "number") return false;
    return true;
  }
  function skeleton(t) {
    const out = {};
    Object.keys(t).forEach(function (k) {
      // x and y of categories are part of the layout of the axis: only numbers may change freely.
      out[k] = FREE[k] && ((k !== "x" && k !== "y") || numeric(t[k])) ? "~" : t[k];
    });
    return JSON.stringify(out);
  }
  function keyOf(data, layout, config) {
    if (!Array.isArray(data)) return null;
    const axes = {};
    let fast = true;
    data.forEach(function (t) {
      if (!ANIMATABLE[t.type || "scatter"]) fast = false;
      axes["xaxis" + (t.xaxis || "x").slice(1)] = 1;
      axes["yaxis" + (t.yaxis || "y").slice(1)] = 1;
    });
    const ranges = {};
    Object.keys(axes).forEach(function (k) {
      const a = layout[k];
      if (!a || !Array.isArray(a.range) || a.range.length !== 2 || a.autorange) fast = false;
      else ranges[k] = a.range;
    });
    if (!fast) return null;
    // The axes' ranges and titles may change on the fast path (Plotly.relayout redraws those axes).
    const axisObjects = new Set();
    const titles = {};
    axisNames(layout).forEach(function (k) {
      if (!layout[k]) return;
      axisObjects.add(layout[k]);
      titles[k] = JSON.stringify(layout[k].title === undefined ? null : layout[k].title);
    });
    return {
      layout: JSON.stringify(layout, function (k, v) {
        return (k === "range" || k === "title") && axisObjects.has(this) ? undefined : v;
      }) + JSON.stringify(config),
      ranges: ranges,
      titles: titles,
      traces: data.map(skeleton),
    };
  }
  const NO_TRANSITION = { transition: { duration: 0 }, frame: { duration: 0, redraw: false }, mode: "immediate" };
  function sameValues(a, b) {
    if (a === b) return true;
    const arrays = (Array.isArray(a) || ArrayBuffer.isView(a)) && (Array.isArray(b) || ArrayBuffer.isView(b));
    if (!arrays || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  // Whether a trace's values changed since the last draw (the fast path's other attributes are the same).
  function moved(t, was) {
    if (!was) return true;
    for (const k in FREE) if (!sameValues(t[k], was[k])) return true;
    return false;
  }
  // Whether Plotly will draw something of a trace (shown, with points): a trace with nothing to draw is left
  // out of Plotly's drawing.
  function drawable(t) {
    const n = function (a) { return a === undefined ? Infinity : a && a.length ? a.length : 0; };
    return t.visible !== false && t.visible !== "legendonly" && Math.min(n(t.x), n(t.y)) > 0 &&
      (t.x !== undefined || t.y !== undefined);
  }
  // Plotly.animate draws the traces it is given and leaves the others as they are, except that the drawing of a
  // trace left with nothing to draw stays (a hidden series would stay drawn) and the redrawn traces move to the
  // end of their layer (over the others). Scatter traces (bar traces are always all redrawn, and Plotly removes
  // those with nothing to draw): what a full redraw does, remove what is not drawn any more and restore the
  // traces' order.
  function tidy(el) {
    const order = {};
    (el._fullData || []).forEach(function (t, i) { if (t.visible === true && t._length) order[t.uid] = i; });
    el.querySelectorAll(".scatterlayer").forEach(function (layer) {
      const kept = [];
      Array.prototype.slice.call(layer.children).forEach(function (g) {
        if (!g.classList.contains("trace")) return;
        const cd = g.__data__;
        const uid = cd && cd[0] && cd[0].trace ? cd[0].trace.uid : undefined;
        if (uid === undefined || !(uid in order)) layer.removeChild(g);
        else kept.push([order[uid], g]);
      });
      if (kept.some(function (k, i) { return i && k[0] < kept[i - 1][0]; })) {
        kept.sort(function (a, b) { return a[0] - b[0]; }).forEach(function (k) { layer.appendChild(k[1]); });
      }
    });
  }
  // An axis title whose text alone changed, plain text on one line, written into the title Plotly drew (a new
  // title through Plotly.relayout costs a second pass over every default and a redraw of every axis, more than
  // the traces' whole update). Plotly draws such a text as the text of its <text> element, centred: the same
  // element with the new text. Null (Plotly.relayout then redraws it) in any other case.
  const PLAIN = /^[^<>&$%\n\r]+$/;
  function titleText(t) {
    return (t === undefined || t === null ? "" : typeof t === "string" ? t : String(t.text || "")).trim();
  }
  function titleRest(t) {
    if (!t || typeof t !== "object") return "{}";
    const o = Object.assign({}, t);
    delete o.text;
    return JSON.stringify(o);
  }
  function titleNode(el, k, was, now) {
    const a = titleText(was), b = titleText(now);
    if (titleRest(was) !== titleRest(now) || !PLAIN.test(a) || !PLAIN.test(b)) return null;
    const nodes = el.querySelectorAll("text." + k.charAt(0) + k.slice(5) + "title");
    if (nodes.length !== 1 || nodes[0].childElementCount || nodes[0].textContent !== a) return null;
    return { node: nodes[0], text: b };
  }
  function update(gd, data, layout, config) {
    const el = typeof gd === "string" ? document.getElementById(gd) : gd;
    const s = state.get(el);
    if (s && s.busy) { // a fast update is drawing: this one is drawn when it is done
      s.next = [data, layout, config];
      return s.busy;
    }
    if (!s || !s.key || !s.data || !el._fullLayout || !el.on) return Plotly.react(el, data, layout, config);
    const d = adaptData(el, data), l = adaptLayout(el, layout), c = adaptConfig(config);
    const key = keyOf(d, l, c);
    const fast = key && key.layout === s.key.layout && key.traces.length === s.key.traces.length &&
      key.traces.every(function (t, i) { return t === s.key.traces[i]; });
    if (!fast) return Plotly.react(el, data, layout, config);
    const ranges = {};
    let rescale = false;
    Object.keys(key.ranges).forEach(function (k) {
      const was = s.key.ranges[k], now = key.ranges[k];
      if (!was || was[0] !== now[0] || was[1] !== now[1]) { ranges[k + ".range"] = now.slice(); rescale = true; }
    });
    const changed = [];
    d.forEach(function (t, i) { if (moved(t, s.data[i])) changed.push(i); });
    const titles = {}; // for Plotly.relayout
    const written = []; // titles written here
    const frameLayout = {}; // the new titles written here, for Plotly's layout
    Object.keys(key.titles).forEach(function (k) {
      if (key.titles[k] === s.key.titles[k]) return;
      const now = l[k].title === undefined ? null : l[k].title;
      const w = changed.length && titleNode(el, k, s.layout && s.layout[k] && s.layout[k].title, now);
      if (w) { written.push(w); frameLayout[k + ".title.text"] = w.text; }
      else titles[k + ".title"] = now;
    });
    s.args = [data, layout, config];
    s.key = key;
    s.data = d;
    s.layout = l;
    const relayout = Object.assign({}, ranges, titles);
    if (!changed.length) { // the axes alone, or nothing: every move is answered by plotly_afterplot
      if (Object.keys(relayout).length) return Plotly.relayout(el, relayout);
      queueMicrotask(function () { el.emit("plotly_afterplot"); });
      return Promise.resolve(el);
    }
    const p = forPlotly(d);
    // Which traces Plotly.animate draws. When a range moves, none: Plotly.relayout then redraws every trace with
    // the axis (the new values are put in the plot's data for Plotly.animate to compute). Otherwise the changed
    // ones (scatter traces only, with at least one drawn, as Plotly drops a layer with no trace drawn in it, and
    // none filled to the next), or all.
    let traces;
    if (rescale) {
      el.data = p;
      traces = [];
    } else if (d.every(function (t) { return (t.type || "scatter") === "scatter" && !t.stackgroup && !t.zorder &&
        !/^tonext/.test(t.fill || ""); })) {
      traces = changed.slice();
      if (!traces.some(function (i) { return drawable(p[i]); })) {
        const one = p.findIndex(drawable);
        if (one >= 0) traces.push(one);
      }
      traces.sort(function (a, b) { return a - b; });
    } else {
      traces = d.map(function (_, i) { return i; });
    }
    let drawn = false;
    function started() {
      el.removeListener("plotly_transitioning", started);
      drawn = true;
      // Plotly draws the traces synchronously right after this event (no transition): a microtask queued now
      // runs once they are drawn, in the same task, before the page is painted. It tidies the layer, writes the
      // titles and moves the ranges and the other titles that moved (Plotly.relayout redraws those axes and the
      // traces on them, then emits plotly_afterplot), or else emits plotly_afterplot.
      queueMicrotask(function () {
        if (traces.length) tidy(el);
        written.forEach(function (w) {
          w.node.textContent = w.text;
          w.node.setAttribute("data-unformatted", w.text);
        });
        if (Object.keys(relayout).length) Plotly.relayout(el, relayout);
        else el.emit("plotly_afterplot");
      });
    }
    s.busy = new Promise(function (resolve) {
      el.on("plotly_transitioning", started);
      // Plotly.animate settles at the next animation frame (its frame loop then stops): a later update waits
      // for it, so that its own frame starts at once.
      try {
        Plotly.animate(el, { data: traces.map(function (i) { return p[i]; }), traces: traces, layout: frameLayout },
          NO_TRANSITION).then(resolve, resolve);
      } catch (e) {
        resolve();
      }
    }).then(function () {
      el.removeListener("plotly_transitioning", started);
      s.busy = null;
      if (!drawn) { // not drawn this way after all: the full path
        s.key = null;
        s.next = s.next || [data, layout, config];
      }
      if (s.next) {
        const a = s.next;
        s.next = null;
        return s.key ? update(el, a[0], a[1], a[2]) : Plotly.react(el, a[0], a[1], a[2]);
      }
      return el;
    });
    return s.busy;
  }
  // The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k at or above x: the top of a fixed axis range.
  function roundUp(x) {
    if (!(x > 0) || !isFinite(x)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(x)));
    const steps = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];
    for (let i = 0; i < steps.length; i++) if (steps[i] * p >= x * (1 - 1e-12)) return steps[i] * p;
    return 10 * p;
  }
  window.Charts = { update: update, toggles: toggles, roundUp: roundUp, el: node };

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
        const want = narrow(gd) ? false : !(s && s.args && s.args[1] && s.args[1].showlegend === false);
        if ((gd.layout.showlegend !== false) !== want) Plotly.relayout(gd, { showlegend: want });
      });
    }, 150);
  });

  // ---------------------------------------------------------------------------------------- text alternative
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
  function plain(v) {
    if (typeof v === "number") {
      if (!isFinite(v)) return String(v);
      return Number.isInteger(v) ? v.toLocaleString("en") : String(Number(v.toPrecision(5)));
    }
    return v === null || v === undefined ? "" : String(v).replace(/<br\s*\/?>/gi, " ").replace(/<[^>]*>/g, "");
  }
  function axisTitle(layout, letter, ref) {
    const a = layout[letter + "axis" + (ref && ref.length > 1 ? ref.slice(1) : "")];
    const t = a && a.title;
    return plain(typeof t === "string" ? t : t && t.text);
  }
  function dataTables(plot) {
    const layout = plot.layout || {};
    const out = [];
    (plot.data || []).forEach(function (t, i) {
      if (t.visible === false || t.visible === "legendonly" || t.hoverinfo === "skip") return;
      const h = t.orientation === "h";
      const cat = h ? t.y : t.x;
      const val = h ? t.x : t.y;
      if (!val || !val.length || Array.from(val).every(function (v) { return v === null; })) return;
      const catTitle = axisTitle(layout, h ? "y" : "x", h ? t.yaxis : t.xaxis) || (h ? "y" : "x");
      const valTitle = axisTitle(layout, h ? "x" : "y", h ? t.xaxis : t.yaxis) || (h ? "x" : "y");
      const labels = Array.isArray(t.hovertext) ? t.hovertext : Array.isArray(t.text) ? t.text : null;
      const head = node("tr", {}, [node("th", { scope: "col", text: catTitle }), node("th", { scope: "col", text: valTitle })]);
      if (labels) head.appendChild(node("th", { scope: "col", text: "Label" }));
      const body = node("tbody");
      Array.from(val).forEach(function (v, j) {
        if (v === null || v === undefined) return; // a point left out (a hidden series' segment)
        const row = node("tr", {}, [node("th", { scope: "row", text: plain(cat ? cat[j] : j + 1) }), node("td", { text: plain(v) })]);
        if (labels) row.appendChild(node("td", { text: plain(labels[j]) }));
        body.appendChild(row);
      });
      out.push(node("table", {}, [node("caption", { text: plain(t.name) || "Series " + (i + 1) }), node("thead", {}, [head]), body]));
    });
    return out;
  }
  function describe(plot) {
    const layout = plot.layout || {};
    const x = axisTitle(layout, "x");
    const y = axisTitle(layout, "y");
    return "Chart" + (y ? ": " + y + (x ? " against " + x : "") : "") +
      ". The button “Show the data as a table” below it gives its data.";
  }

  // Checkboxes for series named only in Plotly's legend.
  // A fieldset of checkboxes, one per series: Charts.toggles (explorers) and the ones made here.
  function swatchOf(colour, dash) {
    const sw = node("span", { className: "swatch", "aria-hidden": "true" });
    if (dash) { // a dashed line
      sw.style.height = "0";
      sw.style.borderRadius = "0";
      sw.style.borderTop = "2px dashed " + (colour || "currentColor");
      sw.style.verticalAlign = "0.25rem";
    } else if (colour) {
      sw.style.background = colour;
    }
    return sw;
  }
  function toggles(opts) {
    const hidden = opts.hidden || new Set();
    const set = node("fieldset", { className: "explorer-radios explorer-toggles chart-series" },
      [node("legend", { text: opts.legend || "Series shown" })]);
    opts.items.forEach(function (it, i) {
      const id = opts.id + "-" + i;
      const box = node("input", { type: "checkbox", id: id });
      box.checked = !hidden.has(it.key);
      box.dataset.series = String(it.key);
      box.addEventListener("change", function () {
        if (box.checked) hidden.delete(it.key); else hidden.add(it.key);
        opts.onChange(hidden, it.key);
      });
      set.appendChild(node("span", { className: "explorer-field explorer-check" },
        [box, node("label", { for: id }, [swatchOf(it.color, it.dash), " " + plain(it.label)])]));
    });
    return set;
  }

  // Checkboxes for series named only in Plotly's legend.
  function seriesToggles(fig, plot) {
    if (fig.querySelector(".explorer-toggles")) return null;
    const s = state.get(plot);
    if (!s || (s.args && s.args[1] && s.args[1].showlegend === false)) return null;
    const groups = [];
    const items = [];
    (plot.data || []).forEach(function (t) {
      const g = groupOf(t);
      if (!g || t.showlegend === false || groups.indexOf(g) >= 0) return;
      groups.push(g);
      items.push({ key: g, label: g,
        color: (t.line && t.line.color) || (t.marker && typeof t.marker.color === "string" && t.marker.color) || "" });
    });
    if (groups.length < 2) return null;
    s.own = true;
    const set = toggles({ id: (fig.id || "chart") + "-series", items: items, hidden: s.hidden,
      onChange: function () { redraw(plot); } });
    // A click in Plotly's legend does what the checkbox does (and keeps it in step).
    plot.on("plotly_legendclick", function (ev) {
      const g = groupOf(ev.data[ev.curveNumber] || {});
      const i = groups.indexOf(g);
      if (i >= 0) {
        const box = set.querySelectorAll("input")[i];
        box.checked = !box.checked;
        box.dispatchEvent(new Event("change"));
      }
      return false;
    });
    plot.on("plotly_legenddoubleclick", function () { return false; });
    return set;
  }
  function redraw(plot) {
    const s = state.get(plot);
    if (s && s.args) Plotly.react(plot, s.args[0], s.args[1], s.args[2]);
  }

  let charts = 0;
  function alternative(fig) {
    if (fig.querySelector(":scope > .chart-data-toggle")) return;
    const plot = fig.querySelector(".js-plotly-plot");
    const hook = fig.querySelector("[data-table]");
    if (!plot && !hook) return;
    const n = ++charts;
    const caption = fig.querySelector(":scope > figcaption");
    const before = caption && caption === fig.lastElementChild ? caption : null; // a figcaption stays last
    if (plot) {
      const toggles = seriesToggles(fig, plot);
      if (toggles) plot.parentNode.insertBefore(toggles, plot);
    }
    const box = hook || node("div", { className: "chart-data", id: "chart-data-" + n });
    if (!box.id) box.id = "chart-data-" + n;
    box.hidden = true;
    const button = node("button", { type: "button", className: "chart-data-toggle", "aria-expanded": "false",
      "aria-controls": box.id, text: "Show the data as a table" });
    function fill() {
      if (hook || !plot) return;
      box.textContent = "";
      const tables = dataTables(plot);
      if (!tables.length) box.appendChild(node("p", { text: "The chart shows no data now." }));
      tables.forEach(function (t) { box.appendChild(t); });
    }
    button.addEventListener("click", function () {
      const opening = box.hidden;
      if (opening) fill();
      box.hidden = !opening;
      button.setAttribute("aria-expanded", String(opening));
      button.textContent = opening ? "Hide the data table" : "Show the data as a table";
    });
    fig.insertBefore(button, before);
    if (!hook) fig.insertBefore(box, before);
    if (plot) {
      plot.setAttribute("role", "img");
      plot.setAttribute("aria-label", describe(plot));
      let pending = false;
      plot.on("plotly_afterplot", function () {
        if (pending) return;
        pending = true;
        requestAnimationFrame(function () {
          pending = false;
          plot.setAttribute("aria-label", describe(plot));
          if (!box.hidden) fill();
        });
      });
    }
  }

  function watch() {
    document.querySelectorAll("figure.chart").forEach(function (fig) {
      if (fig.dataset.ready === "true") { alternative(fig); return; }
      const mo = new MutationObserver(function () {
        if (fig.dataset.ready === "true") { mo.disconnect(); alternative(fig); }
      });
      mo.observe(fig, { attributes: true, attributeFilter: ["data-ready"] });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
