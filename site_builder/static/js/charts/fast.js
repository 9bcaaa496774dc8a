// Charts' fast update (charts/fast.js, after theme.js): window.Charts.update, and Charts.fastPath.
//
// The fast path reads Plotly's internals (gd._fullData, gd._fullLayout, gd.calcdata, a trace type's calc and
// crossTraceCalc, the base plot's plot), which are not part of Plotly's public interface and may change in any
// release. It was written for, and is tested with, Plotly 4.1.1 only (the vendored bundle's
// Plotly.version); with any other Plotly (Charts.fastPath() false, checked on every call), Charts.update is
// Plotly's public Plotly.react, and the wrapped newPlot and react work out nothing for the fast path.
//
// * Charts.update(gd, data, layout, config) -> Promise: use it instead of Plotly.react for the redraw on every
//   move of a control (same arguments; plotly_afterplot is emitted once the redraw is drawn, as with react).
//   The fast path applies when, since the last draw, only the traces' values changed: the same number of
//   traces, each a scatter or a bar, with the same attributes except new numbers in x and y (x and y holding
//   categories must not change), base, customdata, hovertext and text; the same layout and config except the
//   axes' ranges and titles; and every axis a trace uses has a fixed range (layout.[xy]axis.range given, no
//   autorange; a category axis too, e.g. [-0.5, n - 0.5]). Then only what moved is redrawn, in the same task,
//   before the page is painted: no full replot (titles, legend, margins, drag boxes, every axis).
//   - Traces whose values changed (compared with the last call's): their new values go into Plotly's traces and
//     their calculated data is worked out again by their trace type (every trace's if there is a bar, then the
//     bars' positions across traces), without Plotly's pass over every default of the figure and every trace
//     that Plotly.animate and Plotly.react start with (see `direct`); those traces alone are drawn, as
//     Plotly.animate draws them (all of them if there is a bar trace, as Plotly redraws bars all together), and
//     the scatter layer is then tidied as a full redraw would leave it (the drawing of a trace left without
//     points removed, the traces in their order). A trace without points goes to Plotly as hidden (visible:
//     false), which spares Plotly most of its work on it; its defaults are worked out once after each full pass
//     (`prime`), so that it can be shown again this way. When that cannot be done (a trace shown again whose
//     defaults Plotly has not worked out, hover values per point), Plotly.animate (no transition, no redraw)
//     computes and draws them.
//   - An axis range that moved: the new values are computed without drawing, then Plotly.relayout redraws that
//     axis and every trace once.
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
(function () {
  "use strict";
  if (typeof Plotly === "undefined" || !window.Charts) return;
  const WRITTEN_FOR = "4.1.1"; // the Plotly release whose internals this file reads
  const core = window.Charts.core;
  const state = core.state, axisNames = core.axisNames, adaptLayout = core.adaptLayout, adaptData = core.adaptData;
  const adaptConfig = core.adaptConfig, forPlotly = core.forPlotly, noPoints = core.noPoints;
  function fastPath() { return typeof Plotly !== "undefined" && Plotly.version === WRITTEN_FOR; }

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
  // The fast path without Plotly's pass over every default and every trace. Plotly.animate (like every update
  // of Plotly's) first works out the defaults of the whole figure again, every trace's and the layout's, and then
  // the calculated data of every trace, and these cost more than drawing the traces that changed. But when only
  // the traces' values changed (Charts.update's fast path), a trace's defaults are those Plotly worked out last
  // time but for the values themselves and the count of points, and its calculated data is its own (and the bars'
  // positions, worked out across the bar traces). So: the new values go into the plot's data and Plotly's
  // trace (gd.data, gd._fullData), the changed traces' calculated data is worked out by their trace type's own
  // calc (every trace's when there is a bar, then the bars' positions across traces), as Plotly's doCalcdata does,
  // and plotTraces draws them as Plotly.animate does. Only when every changed trace's defaults are at hand:
  // Plotly works out none for a trace with no points (visible: false in _fullData), so one shown again after a
  // full pass goes through Plotly.animate (and prime then works them out). False when not done this way.
  const SORTED = /(total|sum|min|max|mean|geometric mean|median) (ascending|descending)/;
  function arrayIn(o, keys) {
    return !!o && keys.some(function (k) { return Array.isArray(o[k]); });
  }
  function pointCount(t) {
    const n = ["x", "y"].filter(function (k) { return t[k] !== undefined && t[k] !== null; })
      .map(function (k) { return t[k].length; });
    return n.length ? Math.min.apply(null, n) : null;
  }
  function direct(el, d, p, changed) {
    const full = el._fullData, fl = el._fullLayout, cd = el.calcdata;
    if (!full || !fl || !cd || !Array.isArray(el.data) || full.length !== p.length || el.data.length !== p.length ||
        cd.length !== p.length || fl.scattermode === "group" || !fl._subplots || !fl._plots) return false;
    if (axisNames(fl).some(function (k) { return fl[k] && SORTED.test(fl[k].categoryorder || ""); })) return false;
    const ok = changed.every(function (i) {
      const t = full[i];
      if (!t || !t._module || typeof t._module.calc !== "function" || t.index !== i || t.stackgroup) return false;
      if (pointCount(p[i]) === null || (t.x === undefined) !== (p[i].x === undefined) ||
          (t.y === undefined) !== (p[i].y === undefined)) return false;
      // hover values per point (Plotly's fx calc copies them into the calculated data)
      if (arrayIn(t, ["hoverinfo", "hovertemplate"]) || arrayIn(t.hoverlabel, ["bgcolor", "bordercolor", "namelength",
        "align", "showarrow"]) || (t.hoverlabel && arrayIn(t.hoverlabel.font, ["size", "color", "family", "weight",
        "style", "variant"]))) return false;
      // a bar trace keeps points (Plotly never works out the bars' positions across traces with a shown bar trace
      // without points)
      if (t.type === "bar" && (pointCount(p[i]) === 0 || p[i].visible === false || d[i].visible === false)) return false;
      // Plotly's own trace is drawn (visible: true), or stays without points, as it was
      return t.visible === true || (t.visible === false && !drawable(p[i]));
    });
    if (!ok) return false;
    const bars = full.some(function (t) { return t.type === "bar"; });
    changed.forEach(function (i) {
      const t = full[i], input = el.data[i];
      Object.keys(FREE).forEach(function (k) {
        if (!(k in p[i])) return;
        input[k] = p[i][k];
        if (k in t) t[k] = p[i][k];
      });
      if ("visible" in p[i]) input.visible = p[i].visible;
      // a trace the explorer hides (visible: false) has no points to draw either
      t._length = p[i].visible === false || d[i].visible === false ? 0 : pointCount(p[i]);
    });
    // With a bar, every trace's calculated data again (Plotly's bar positions across traces build on all of it).
    const again = bars ? full.map(function (_, i) { return i; }) : changed;
    again.forEach(function (i) {
      const t = full[i];
      let c = [];
      if (t.visible === true && t._length !== 0) {
        t._extremes = {};
        c = t._module.calc(el, t);
      }
      if (!Array.isArray(c) || !c[0]) c = [{ x: undefined, y: undefined }]; // Plotly's BADNUM
      if (!c[0].t) c[0].t = {};
      c[0].trace = t;
      cd[i] = c;
    });
    if (bars) {
      (fl._visibleModules || []).forEach(function (m) {
        if (typeof m.crossTraceCalc !== "function" || !m.basePlotModule || m.basePlotModule.name !== "cartesian") return;
        (fl._subplots.cartesian || []).forEach(function (sp) { m.crossTraceCalc(el, fl._plots[sp], sp); });
      });
    }
    return true;
  }
  // Draws the traces as Plotly.animate does with no transition (its base plot's plot, given the traces), then
  // tidies the scatter layer.
  const INSTANT = { duration: 0, easing: "cubic-in-out", ordering: "layout first" };
  function plotTraces(el, traces) {
    if (!traces.length) return;
    const t = el._fullData[traces[0]];
    t._module.basePlotModule.plot(el, traces, INSTANT, function () { return function () {}; });
    if (el._fullLayout._rehover) el._fullLayout._rehover();
    tidy(el);
  }
  // A trace the explorer gives with no points (shown, but nothing to draw now) gets no defaults from Plotly
  // (visible: false in _fullData): direct could not draw it when it has points again. So, after a full pass, one
  // more pass of Plotly's defaults and calculated data (Plotly.animate with no trace to draw) in which such traces
  // have one point with no value (the defaults are those of the trace with its points but for the count: only
  // scatter traces with a mode, whose default depends on the count; not bars, whose positions Plotly works out
  // across the shown ones); then they are given back their values, no point (_length 0) and the calculated data
  // of a trace with none, and nothing was drawn.
  function prime(el) {
    const s = state.get(el);
    const full = el._fullData;
    if (!s || !s.data || !full || !Array.isArray(el.data) || full.length !== el.data.length ||
        s.data.length !== el.data.length || !el.on) return null;
    const idx = [];
    el.data.forEach(function (t, i) {
      const a = s.data[i];
      if (full[i] && full[i].visible === false && a && a.visible !== false && a.visible !== "legendonly" &&
          noPoints(a) && (a.type || "scatter") === "scatter" && a.mode) idx.push(i);
    });
    if (!idx.length) return null;
    const saved = idx.map(function (i) { return el.data[i]; });
    idx.forEach(function (i) {
      const one = Object.assign({}, el.data[i], { visible: true });
      ["x", "y"].forEach(function (k) { if (one[k] !== undefined && one[k] !== null) one[k] = [null]; });
      el.data[i] = one;
    });
    let restored = false;
    function restore() {
      el.removeListener("plotly_transitioning", restore);
      if (restored) return;
      restored = true;
      idx.forEach(function (i, j) {
        el.data[i] = saved[j];
        const t = el._fullData && el._fullData[i];
        if (!t) return;
        ["x", "y"].forEach(function (k) { if (k in t) t[k] = saved[j][k]; });
        t._input = saved[j];
        t._length = 0;
        if (el.calcdata) el.calcdata[i] = [{ x: undefined, y: undefined, t: {}, trace: t }];
      });
    }
    el.on("plotly_transitioning", restore);
    let p;
    try {
      p = Plotly.animate(el, { data: [], traces: [] }, NO_TRANSITION);
    } catch (e) {
      p = null;
    }
    if (!p || typeof p.then !== "function") { restore(); return null; }
    return p.then(function () { restore(); return el; }, function () { restore(); return el; });
  }
  function update(gd, data, layout, config) {
    if (!fastPath()) return Plotly.react(gd, data, layout, config); // Plotly's public update
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
      if (w) { w.axis = k; written.push(w); frameLayout[k + ".title.text"] = w.text; }
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
    // Which traces are drawn: the changed ones (scatter traces only, all on one subplot, with at least one drawn,
    // as Plotly drops a layer with no trace drawn in it, and a subplot with none, and none filled to the next), or
    // all. When a range moves, none: Plotly.relayout then redraws every trace with the axis.
    let traces;
    if (d.every(function (t) { return (t.type || "scatter") === "scatter" && !t.stackgroup && !t.zorder &&
        !/^tonext/.test(t.fill || "") && (t.xaxis || "x") + (t.yaxis || "y") === (d[0].xaxis || "x") + (d[0].yaxis || "y"); })) {
      traces = changed.slice();
      if (!traces.some(function (i) { return drawable(p[i]); })) {
        const one = p.findIndex(drawable);
        if (one >= 0) traces.push(one);
      }
      traces.sort(function (a, b) { return a - b; });
    } else {
      traces = d.map(function (_, i) { return i; });
    }
    function writeTitles(layoutToo) {
      written.forEach(function (w) {
        w.node.textContent = w.text;
        w.node.setAttribute("data-unformatted", w.text);
        if (!layoutToo) return; // else Plotly.animate puts it into the plot's layout
        [el.layout, el._fullLayout].forEach(function (lay) {
          const a = lay && lay[w.axis];
          if (!a) return;
          if (a.title && typeof a.title === "object") a.title.text = w.text;
          else a.title = { text: w.text };
        });
      });
    }
    // The new values computed and drawn without Plotly's pass over every default and every trace (see direct):
    // in this task, before the page is painted. plotly_afterplot (or Plotly.relayout, which redraws the axes that
    // moved and every trace, then emits it) comes in a microtask, once the explorer's handler has returned.
    if (direct(el, d, p, changed)) {
      if (!rescale) plotTraces(el, traces);
      queueMicrotask(function () {
        writeTitles(true);
        if (Object.keys(relayout).length) Plotly.relayout(el, relayout);
        else el.emit("plotly_afterplot");
      });
      return Promise.resolve(el);
    }
    if (rescale) { // Plotly.animate computes the new values (put in the plot's data) and draws nothing
      el.data = p;
      traces = [];
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
        writeTitles();
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
      if (!drawn) { // not drawn this way after all: the full path
        s.key = null;
        s.next = s.next || [data, layout, config];
        return null;
      }
      return prime(el); // Plotly worked out every default again: those of the traces with no points too
    });
    return settle(el, s, s.busy);
  }
  // An update asked for while `busy` runs is drawn once it is done (only the latest).
  function settle(el, s, busy) {
    s.busy = busy.then(function () {
      s.busy = null;
      if (s.next) {
        const a = s.next;
        s.next = null;
        return s.key ? update(el, a[0], a[1], a[2]) : Plotly.react(el, a[0], a[1], a[2]);
      }
      return el;
    });
    return s.busy;
  }
  window.Charts.update = update;
  window.Charts.fastPath = fastPath;
  core.fast = { keyOf: function (d, l, c) { return fastPath() ? keyOf(d, l, c) : null; }, prime: prime, settle: settle };
})();
