// Charts' accessibility (charts/a11y.js, after theme.js and fast.js).
//
// Once a chart is drawn (figure.chart[data-ready="true"]), it gets a text alternative: the plot is an image named
// by its axes, and a button shows its data as a table, built from the plot's traces when opened (points whose
// value is null are left out). A chart whose series are named only in Plotly's legend gets checkboxes for them
// (keyboard-operable, unlike the legend).
// A chart's data table, opened or closed, changes its figure's height: the figure then gets the event
// "chart:drawn" (bubbling; detail {name, reason: "table"}), as after each draw (charts/mount.js), so that a deck
// can fit the slide again.
//
// * Charts.toggles({id, legend, items: [{key, label, color, dash}], hidden: Set, onChange(hidden, key)}) ->
//   a fieldset of checkboxes (ids id-0, id-1, ...; class explorer-toggles, so no others are made here), one per
//   series with its colour swatch (a dashed line when dash), checked when its key is not in `hidden`; a change
//   updates `hidden` and calls onChange. Put it next to the plot and redraw from onChange.
(function () {
  "use strict";
  if (typeof Plotly === "undefined" || !window.Charts) return;
  const core = window.Charts.core;
  const state = core.state, groupOf = core.groupOf;
  const node = window.Charts.el;

  function plain(v) {
    if (typeof v === "number") {
      if (!isFinite(v)) return String(v);
      return Number.isInteger(v) ? v.toLocaleString("en") : String(Number(v.toPrecision(5)));
    }
    return v === null || v === undefined ? "" : String(v).replace(/<br\s*\/?>/gi, " ").replace(/<[^>]*>/g, "");
  }
  // An axis's title, or (none of its own) that of the axis it is drawn over (overlaying).
  function axisTitle(layout, letter, ref) {
    const a = layout[letter + "axis" + (ref && ref.length > 1 ? ref.slice(1) : "")];
    const t = a && a.title;
    const text = plain(typeof t === "string" ? t : t && t.text);
    if (text || !a || typeof a.overlaying !== "string" || a.overlaying.charAt(0) !== letter) return text;
    return axisTitle(Object.assign({}, layout, { [letter + "axis" + (ref && ref.length > 1 ? ref.slice(1) : "")]: null }),
      letter, a.overlaying);
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
      fig.dispatchEvent(new CustomEvent("chart:drawn", { bubbles: true,
        detail: { name: (fig.id || "chart").replace(/^chart-/, ""), reason: "table" } }));
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
  window.Charts.toggles = toggles;
})();
