// What every chart shares, whichever explorer draws it. Loaded after Plotly and before the explorers' page code,
// on pages with a chart only. Plotly.newPlot and Plotly.react are wrapped so that every layout an explorer passes
//
// * follows the page's colour scheme: transparent paper, text and grid from the CSS variables (and again when the
//   scheme changes: the header's toggle or the system's setting);
// * never shows Plotly's toolbar (displayModeBar: false, whatever the explorer passed);
// * on a narrow screen (plot under 600 px) drops Plotly's legend, whose entries would cover the axis: the series
//   are then named by the chart's own toggles (an explorer's `.explorer-toggles`, else the ones made here).
//
// Once a chart is drawn (figure.chart[data-ready="true"]), it gets a text alternative: the plot is an image named
// by its axes, and a button shows its data as a table, built from the plot's traces when opened. A chart whose
// series are named only in Plotly's legend gets checkboxes for them (keyboard-operable, unlike the legend).
(function () {
  "use strict";
  if (typeof Plotly === "undefined") return;
  const NARROW = 600;
  const state = new WeakMap(); // plot div -> { args: [data, layout, config], hidden: Set of series, own: bool }

  function css(name, fallback) {
    const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return v || fallback;
  }
  function colours() {
    return { ink: css("--ink", "#1b1f24"), grid: css("--grid", "#e4e7eb"), axis: css("--muted", "#5b6570") };
  }
  function axisNames(layout) {
    const names = Object.keys(layout || {}).filter(function (k) { return /^[xy]axis\d*$/.test(k); });
    if (names.indexOf("xaxis") < 0) names.push("xaxis");
    if (names.indexOf("yaxis") < 0) names.push("yaxis");
    return names;
  }
  function narrow(gd) {
    const w = gd.clientWidth || (gd.parentNode && gd.parentNode.clientWidth) || window.innerWidth;
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
      l[k] = Object.assign({ gridcolor: c.grid, zerolinecolor: c.axis, linecolor: c.axis }, l[k]);
    });
    if (narrow(gd)) l.showlegend = false;
    return l;
  }
  function adaptData(gd, data) {
    const s = state.get(gd);
    if (!s || !s.hidden.size || !Array.isArray(data)) return data;
    return data.map(function (t) { return s.hidden.has(groupOf(t)) ? Object.assign({}, t, { visible: false }) : t; });
  }
  function adaptConfig(config) { return Object.assign({}, config, { displayModeBar: false, displaylogo: false }); }

  function wrap(original) {
    return function (gd, data, layout, config) {
      const el = typeof gd === "string" ? document.getElementById(gd) : gd;
      if (data && !Array.isArray(data) && typeof data === "object") { // newPlot(gd, {data, layout, config})
        const fig = data;
        return original.call(this, gd, Object.assign({}, fig, {
          data: adaptData(el, fig.data), layout: adaptLayout(el, fig.layout), config: adaptConfig(fig.config) }));
      }
      const s = state.get(el) || { hidden: new Set(), own: false };
      s.args = [data, layout, config];
      state.set(el, s);
      return original.call(this, gd, adaptData(el, data), adaptLayout(el, layout), adaptConfig(config));
    };
  }
  Plotly.newPlot = wrap(Plotly.newPlot);
  Plotly.react = wrap(Plotly.react);

  function plots() { return Array.from(document.querySelectorAll("figure.chart .js-plotly-plot")); }

  // The colour scheme changed: restyle each drawn plot's paper, text and axes.
  function recolour() {
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
      if (!val || !val.length) return;
      const catTitle = axisTitle(layout, h ? "y" : "x", h ? t.yaxis : t.xaxis) || (h ? "y" : "x");
      const valTitle = axisTitle(layout, h ? "x" : "y", h ? t.xaxis : t.yaxis) || (h ? "x" : "y");
      const labels = Array.isArray(t.hovertext) ? t.hovertext : Array.isArray(t.text) ? t.text : null;
      const head = node("tr", {}, [node("th", { scope: "col", text: catTitle }), node("th", { scope: "col", text: valTitle })]);
      if (labels) head.appendChild(node("th", { scope: "col", text: "Label" }));
      const body = node("tbody");
      Array.from(val).forEach(function (v, j) {
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
  function seriesToggles(fig, plot) {
    if (fig.querySelector(".explorer-toggles")) return null;
    const s = state.get(plot);
    if (!s || (s.args && s.args[1] && s.args[1].showlegend === false)) return null;
    const groups = [];
    const colour = {};
    (plot.data || []).forEach(function (t) {
      const g = groupOf(t);
      if (!g || t.showlegend === false || groups.indexOf(g) >= 0) return;
      groups.push(g);
      colour[g] = (t.line && t.line.color) || (t.marker && typeof t.marker.color === "string" && t.marker.color) || "";
    });
    if (groups.length < 2) return null;
    s.own = true;
    const set = node("fieldset", { className: "explorer-radios explorer-toggles chart-series" }, [node("legend", { text: "Series shown" })]);
    groups.forEach(function (g, i) {
      const id = (fig.id || "chart") + "-series-" + i;
      const box = node("input", { type: "checkbox", id: id });
      box.checked = true;
      box.addEventListener("change", function () {
        if (box.checked) s.hidden.delete(g); else s.hidden.add(g);
        redraw(plot);
      });
      const swatch = node("span", { className: "swatch", "aria-hidden": "true" });
      if (colour[g]) swatch.style.background = colour[g];
      set.appendChild(node("span", { className: "explorer-field explorer-check" }, [box, node("label", { for: id }, [swatch, " " + plain(g)])]));
    });
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
