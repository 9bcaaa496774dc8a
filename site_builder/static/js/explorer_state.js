// Shareable explorer state, a reset and a CSV of what a chart shows. Loaded after the chart files (charts/*.js), on pages with a chart.
//
// State in the URL. Once an explorer is drawn (figure.chart#chart-NAME[data-ready="true"]), every control in it
// with an id (a select, a range or number input, a checkbox, a radio group by its name, a group of aria-pressed
// buttons by their data attribute, such as loss curves' x axis) is one query parameter
// `NAME.KEY` (KEY: the id or the radio group's name without its `NAME-` or `chart-NAME-` prefix), written only
// when its value differs from the control's value as the explorer first drew it (a checkbox as 1 or 0). The
// query string is rewritten with history.replaceState a moment after the last move (and when the page is left),
// keeping every other parameter (a deck's `?present`) and the fragment (a deck's `#slide-id`), so a reload or a
// shared link shows the same setting. On load the URL's values are put into the controls, each with the event
// the reader's own move would send (`change`, or `input` for a range), in document order and again until
// nothing moves (a control whose options follow another's is set once the other is); a value a control cannot
// take (stale or typed by hand) is left out, and the explorer keeps its default there. The figure then gets
// data-state="ready".
//
// A range whose thumb must sit exactly on a value off its step grid (break-even's recorded points) is placed with
// ExplorerState.place(input, value): its min moves up by less than one step, so that the grid passes through the
// value; such a range's parameter is written as `value@min`. The reader's first key or press on it restores its
// own grid.
//
// When another script writes the URL (history.pushState or replaceState: a deck entering or leaving present mode),
// every explorer's parameters are written into the new URL at once.
//
// A "Reset" button (no id: benchmarks move only controls with ids) puts every control back to its first value
// and removes the explorer's parameters from the URL.
//
// "Download CSV", beside every chart's data-table button: the plot's traces as the data table lists them (the
// same traces and points: shown, with values, not hover-skipped, a null value left out), one row per point with
// the series, x, y (and base, for bars laid end to end, and the point's label where the trace has one), at full
// precision, made in the browser as a Blob and saved as `NAME.csv`. Where the explorer says which points are
// registered figures (ExplorerState.figures(NAME, fn)), those rows also carry the figure's key, its text and its
// source cell (file § section › row › column, from the site's figures.json). ExplorerState.csv(figure, figures)
// returns the text (figures: figures.json's entries by key, or nothing).
(function () {
  "use strict";
  const PASSES = 5;
  const WRITE_DELAY = 250; // ms after the last move

  function nameOf(fig) { return fig.dataset.chart || (fig.id || "chart").replace(/^chart-/, ""); }

  function keyOf(name, raw) {
    let k = raw.replace(/^chart-/, "");
    if (k.indexOf(name + "-") === 0) k = k.slice(name.length + 1);
    return k;
  }

  // The figure's controls: [{key, kind, els}] in document order.
  function controlsOf(fig, name) {
    const out = [];
    const groups = {};
    fig.querySelectorAll("select, input, button[aria-pressed]").forEach(function (e) {
      if (e.tagName === "BUTTON") { // one of a group of pressed-or-not buttons, named by their data attribute
        const attr = Object.keys(e.dataset)[0];
        if (!attr) return;
        const g = "button:" + attr;
        if (!groups[g]) {
          groups[g] = { key: attr, kind: "pressed", attr: attr, els: [] };
          out.push(groups[g]);
        }
        groups[g].els.push(e);
        return;
      }
      if (e.type === "radio") {
        if (!e.name) return;
        if (!groups[e.name]) {
          groups[e.name] = { key: keyOf(name, e.name), kind: "radio", els: [] };
          out.push(groups[e.name]);
        }
        groups[e.name].els.push(e);
        return;
      }
      if (!e.id) return;
      const kind = e.tagName === "SELECT" ? "select" : e.type;
      if (["select", "range", "number", "checkbox"].indexOf(kind) < 0) return;
      out.push({ key: keyOf(name, e.id), kind: kind, els: [e] });
    });
    return out;
  }

  function read(c) {
    const e = c.els[0];
    if (c.kind === "radio") {
      const on = c.els.filter(function (r) { return r.checked; })[0];
      return on ? on.value : "";
    }
    if (c.kind === "checkbox") return e.checked ? "1" : "0";
    if (c.kind === "pressed") {
      const down = c.els.filter(function (b) { return b.getAttribute("aria-pressed") === "true"; })[0];
      return down ? down.dataset[c.attr] : "";
    }
    if (c.kind === "range" && e.dataset.low !== undefined && e.min !== e.dataset.low) return e.value + "@" + e.min;
    return e.value;
  }

  function fire(e, type) { e.dispatchEvent(new Event(type, { bubbles: true })); }

  // Puts v into the control with the event a reader's move sends; false when the control cannot take it.
  function apply(c, v) {
    const e = c.els[0];
    if (c.kind === "select") {
      if (v !== "" && !Array.from(e.options).some(function (o) { return o.value === v; })) return false;
      if (v === "") e.selectedIndex = -1; else e.value = v;
      fire(e, "change");
      return true;
    }
    if (c.kind === "checkbox") {
      if (v !== "1" && v !== "0") return false;
      e.checked = v === "1";
      fire(e, "change");
      return true;
    }
    if (c.kind === "pressed") {
      const b = c.els.filter(function (x) { return x.dataset[c.attr] === v; })[0];
      if (!b) return false;
      b.click();
      return true;
    }
    if (c.kind === "radio") {
      const r = c.els.filter(function (x) { return x.value === v; })[0];
      if (!r) return false;
      r.checked = true;
      fire(r, "change");
      return true;
    }
    // a range or number input: a finite number within its bounds (a range's own min when it was placed)
    const parts = v.split("@");
    const n = Number(parts[0]);
    const low = Number(e.dataset.low !== undefined ? e.dataset.low : e.min);
    if (parts[0] === "" || !isFinite(n) || parts.length > 2) return false;
    if (e.min !== "" && n < low) return false;
    if (e.max !== "" && n > Number(e.max)) return false;
    if (parts.length === 2) {
      const m = Number(parts[1]);
      const step = Number(e.step);
      if (e.dataset.low === undefined || parts[1] === "" || !isFinite(m) || m < low || !(m < low + step) || n < m) {
        return false;
      }
      e.min = parts[1];
    } else if (e.dataset.low !== undefined) {
      e.min = e.dataset.low;
    }
    e.value = parts[0];
    fire(e, c.kind === "range" ? "input" : "change");
    return true;
  }

  // Every wanted value (key -> text) put into the controls, in order, again while something moves.
  function restore(controls, wanted) {
    for (let pass = 0; pass < PASSES; pass++) {
      let moved = false;
      controls.forEach(function (c) {
        if (!(c.key in wanted) || read(c) === wanted[c.key]) return;
        const before = read(c);
        if (apply(c, wanted[c.key]) && read(c) !== before) moved = true;
      });
      if (!moved) return;
    }
  }

  // A range's thumb exactly at `value`: its min raised by less than a step, so that the step grid passes there.
  function place(input, value) {
    if (input.dataset.low === undefined) input.dataset.low = input.min;
    const low = Number(input.dataset.low);
    const step = Number(input.step);
    let frac = 0;
    if (step > 0 && isFinite(value) && value > low) {
      const r = (value - low) / step;
      frac = r - Math.floor(r);
      if (frac < 1e-9 || frac > 1 - 1e-9) frac = 0;
    }
    input.min = frac ? String(low + frac * step) : input.dataset.low;
    input.value = String(value);
    if (frac && !input.dataset.regrid) {
      // The reader's first key or press puts the slider back on its own grid (Home and End reach its ends),
      // before the browser moves the thumb.
      input.dataset.regrid = "1";
      const back = function () {
        if (input.min === input.dataset.low) return;
        input.min = input.dataset.low;
        input.value = input.value; // sanitised onto the restored grid
      };
      input.addEventListener("keydown", back);
      input.addEventListener("pointerdown", back);
    }
  }

  function attach(fig) {
    if (fig.dataset.state) return;
    const name = nameOf(fig);
    const prefix = name + ".";
    const controls = controlsOf(fig, name);
    const defaults = {};
    controls.forEach(function (c) { defaults[c.key] = read(c); });
    let quiet = false;
    let timer = 0;

    function write() {
      clearTimeout(timer);
      timer = 0;
      const params = new URLSearchParams(location.search);
      const before = params.toString();
      Array.from(params.keys()).forEach(function (k) { if (k.indexOf(prefix) === 0) params.delete(k); });
      controls.forEach(function (c) {
        const v = read(c);
        if (v !== defaults[c.key]) params.set(prefix + c.key, v);
      });
      const after = params.toString();
      if (after === before) return;
      // `present=` back to `present`, as the decks write it
      const query = after.replace(/(^|&)present=(?=&|$)/, "$1present");
      history.replaceState(history.state, "", location.pathname + (query ? "?" + query : "") + location.hash);
    }
    function later() {
      if (quiet) return;
      clearTimeout(timer);
      timer = setTimeout(write, WRITE_DELAY);
    }
    writers.push(write);
    fig.addEventListener("change", later);
    fig.addEventListener("click", function (ev) { if (ev.target.closest && ev.target.closest("button[aria-pressed]")) later(); });
    fig.addEventListener("input", later);
    window.addEventListener("pagehide", function () { if (timer) write(); });
    document.addEventListener("visibilitychange", function () { if (timer && document.hidden) write(); });

    const reset = Charts.el("button", { type: "button", className: "explorer-reset", text: "Reset",
      title: "Every control back to its default (and the link without this explorer's settings)" });
    reset.addEventListener("click", function () {
      quiet = true;
      try { restore(controls, defaults); } finally { quiet = false; }
      write();
    });
    const form = fig.querySelector(".explorer-controls");
    if (form) form.appendChild(reset);
    else fig.insertBefore(reset, fig.firstChild);

    const wanted = {};
    new URLSearchParams(location.search).forEach(function (v, k) {
      if (k.indexOf(prefix) === 0) wanted[k.slice(prefix.length)] = v;
    });
    if (Object.keys(wanted).length) {
      quiet = true;
      try { restore(controls, wanted); } catch (e) { /* a stale value the explorer refused: its default stays */ }
      quiet = false;
      write(); // the URL without what was left out
    }
    fig.dataset.state = "ready";
  }

  // ---------------------------------------------------------------------------------------- CSV
  function cellText(v) {
    if (v === null || v === undefined) return "";
    let s = typeof v === "number" ? String(v) : String(v).replace(/<br\s*\/?>/gi, " ").replace(/<[^>]*>/g, "");
    if (/[",\r\n]/.test(s)) s = '"' + s.replace(/"/g, '""') + '"';
    return s;
  }
  // An explorer's points that are registered figures: ExplorerState.figures(NAME, fn), fn(trace, j) -> the figure's
  // key for point j of that trace of the plot, or null.
  const keyers = {};
  function describe(s) {
    return s ? s.file + " § " + s.section + " › " + (s.row || []).join(" / ") + " › " + s.column : "";
  }
  // The site's figures.json (key -> {text, source}), read once, when a CSV with figures is first asked for.
  let registry = null;
  let registryLoaded = null; // the same, once it has arrived
  function figuresJson() {
    if (!registry) {
      let root = "";
      try {
        const spec = JSON.parse(document.getElementById("chart-scripts").textContent);
        root = spec.first[0].replace(/assets\/.*$/, "");
      } catch (e) { root = ""; }
      registry = fetch(new URL(root + "figures.json", location.href).href).then(function (r) {
        if (!r.ok) throw new Error(String(r.status));
        return r.json();
      }).then(function (j) {
        const out = {};
        (j.figures || []).forEach(function (f) { out[f.key] = f; });
        registryLoaded = out;
        return out;
      }).catch(function () { registry = null; return {}; });
    }
    return registry;
  }
  // The rows of the data table (charts/a11y.js dataTables): the same traces and points; with `figures` (figures.json by
  // key), a point that is a registered figure also gets its key, its text and its source cell.
  function csv(fig, figures) {
    const keyer = keyers[nameOf(fig)];
    const plot = fig.querySelector(".js-plotly-plot");
    const traces = (plot && plot.data) || [];
    const shown = [];
    traces.forEach(function (t, i) {
      if (t.visible === false || t.visible === "legendonly" || t.hoverinfo === "skip") return;
      const h = t.orientation === "h";
      const val = h ? t.x : t.y;
      if (!val || !val.length || Array.from(val).every(function (v) { return v === null; })) return;
      shown.push([t, i]);
    });
    const withBase = shown.some(function (s) { return Array.isArray(s[0].base); });
    const withLabel = shown.some(function (s) { return Array.isArray(s[0].hovertext) || Array.isArray(s[0].text); });
    const keys = shown.map(function (s) {
      if (!keyer) return null;
      const t = s[0];
      const val = t.orientation === "h" ? t.x : t.y;
      return Array.from(val).map(function (_, j) { return keyer(t, j) || null; });
    });
    const withKeys = keys.some(function (k) { return k && k.some(Boolean); });
    const head = ["series", "x", "y"].concat(withBase ? ["base"] : [], withLabel ? ["label"] : [],
      withKeys ? ["figure", "figure text", "source"] : []);
    const lines = [head.join(",")];
    shown.forEach(function (s, n) {
      const t = s[0];
      const h = t.orientation === "h";
      const val = Array.from(h ? t.x : t.y);
      const cat = h ? t.y : t.x;
      const labels = Array.isArray(t.hovertext) ? t.hovertext : Array.isArray(t.text) ? t.text : null;
      const series = t.name || "Series " + (s[1] + 1);
      val.forEach(function (v, j) {
        if (v === null || v === undefined) return;
        const c = cat ? cat[j] : j + 1;
        const row = [series, h ? v : c, h ? c : v];
        if (withBase) row.push(Array.isArray(t.base) ? t.base[j] : "");
        if (withLabel) row.push(labels ? labels[j] : "");
        if (withKeys) {
          const key = keys[n] && keys[n][j];
          const f = key && figures ? figures[key] : null;
          row.push(key || "", f ? f.text : "", f ? describe(f.source) : "");
        }
        lines.push(row.map(cellText).join(","));
      });
    });
    return lines.join("\r\n") + "\r\n";
  }
  // The file is saved in the click's own task when figures.json is already here (it is fetched when the pointer or
  // the focus reaches the button): a download started later, after the click's user activation, counts as an automatic download,
  // which Chromium blocks after the first.
  function download(fig) {
    const keyer = keyers[nameOf(fig)];
    if (!keyer) { save(fig, csv(fig, null)); return; }
    if (registryLoaded) { save(fig, csv(fig, registryLoaded)); return; }
    figuresJson().then(function (figures) { save(fig, csv(fig, figures)); });
  }
  function save(fig, text) {
    const blob = new Blob([text], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const a = Charts.el("a", { href: url, download: nameOf(fig) + ".csv" });
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }
  function csvButton(fig) {
    if (fig.querySelector(":scope > .chart-csv") || !fig.querySelector(".js-plotly-plot")) return;
    const toggle = fig.querySelector(":scope > .chart-data-toggle");
    if (!toggle) return;
    const b = Charts.el("button", { type: "button", className: "chart-csv", text: "Download CSV",
      title: "The chart's points as shown, as a CSV file" });
    b.addEventListener("click", function () { download(fig); });
    toggle.parentNode.insertBefore(b, toggle.nextSibling);
    // figures.json is fetched when the reader comes to the button (a pointer over it, or the focus), not with the
    // page: a page that is only read (or printed) never loads it
    if (keyers[nameOf(fig)]) {
      ["pointerenter", "focus", "pointerdown"].forEach(function (ev) { b.addEventListener(ev, figuresJson); });
    }
  }

  function ready(fig) {
    if (fig.querySelector(".explorer-controls")) attach(fig);
    csvButton(fig);
  }
  function watch() {
    document.querySelectorAll("figure.chart").forEach(function (fig) {
      if (fig.dataset.ready === "true") { ready(fig); return; }
      const mo = new MutationObserver(function () {
        if (fig.dataset.ready === "true") { mo.disconnect(); ready(fig); }
      });
      mo.observe(fig, { attributes: true, attributeFilter: ["data-ready"] });
    });
  }
  if (typeof Plotly === "undefined" || !window.Charts) return;
  // write(): every explorer's pending URL state written now (tests; a page being left does it itself)
  const writers = [];
  // Another script's history entry (a deck's Present writes ?present#slide, and leaving it the article's URL, both
  // without the explorers' parameters): each explorer's parameters are written into it at once, so that the state
  // survives entering and leaving present mode, a reload and Back/Forward.
  let writing = false;
  ["pushState", "replaceState"].forEach(function (m) {
    const original = history[m];
    history[m] = function () {
      const out = original.apply(this, arguments);
      if (!writing) {
        writing = true;
        try { writers.forEach(function (w) { w(); }); } finally { writing = false; }
      }
      return out;
    };
  });
  window.ExplorerState = { place: place, csv: csv, figures: function (name, fn) { keyers[name] = fn; }, write: function () { writers.forEach(function (w) { w(); }); } };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
