/* The figure index: its rows rendered from figures.json (the page's HTML holds only each figure's key and a
 * link to its cell, grouped by results file and section, which is what a reader without scripts gets), and a
 * filter by key, text, page or source. Each figure is the same link element as on every other page.
 */
(function () {
  "use strict";

  var article = document.querySelector("article.figures[data-figures]");
  if (!article) return;
  var root = article.getAttribute("data-root") || "";
  var filterBox = article.querySelector(".fig-filter");
  var input = document.getElementById("fig-filter-input");
  var count = document.getElementById("fig-count");
  var titles = {};
  try {
    titles = JSON.parse(document.getElementById("figure-pages").textContent);
  } catch (e) {
    titles = {};
  }
  var rows = []; // {tr, hay, group}
  var SHOWN = 8; // pages listed in a row before its "and N more" button
  var groups = {}; // group id -> {section, total, counters}

  function describe(s) { // one line, as site.js writes a figure link's source (site.js runs first)
    return window.SiteSource.describe(s.file, s.section, s.row, s.column);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function figLink(f) {
    var s = f.source;
    var a = el("a", "fig", f.text);
    a.href = root + s.page + "#" + s.anchor;
    a.setAttribute("data-fig", f.key);
    a.setAttribute("data-file", s.file);
    a.setAttribute("data-section", s.section);
    a.setAttribute("data-row", JSON.stringify(s.row));
    a.setAttribute("data-col", s.column);
    return a;
  }

  // A key is a dotted path: it may break after a dot or an underscore (<wbr>), never inside a part, so a long key
  // fits its column without a scrolling cell
  function keyCode(k) {
    var code = el("code", "");
    k.split(/(?<=[._])/).forEach(function (part, i) {
      if (i) code.appendChild(document.createElement("wbr"));
      code.appendChild(document.createTextNode(part));
    });
    return code;
  }

  function cell(label, cls) {
    var td = el("td", cls);
    td.setAttribute("data-label", label);
    return td;
  }

  function row(f) {
    var s = f.source;
    var tr = el("tr");
    tr.setAttribute("data-key", f.key);
    var key = cell("Key", "fig-key");
    key.appendChild(keyCode(f.key));
    var text = cell("Text", "fig-text");
    text.appendChild(figLink(f));
    if (f.published !== undefined && f.published !== f.text) {
      text.appendChild(el("span", "fig-published", "published: " + f.published));
    }
    if (f.versions !== undefined) {
      var moved = Object.keys(f.versions).map(function (v) { return v + ": " + f.versions[v]; });
      text.appendChild(el("span", "fig-published", "data versions differ: " + moved.join(" → ")));
    }
    var src = cell("Source cell", "fig-src");
    var srcLink = el("a", "", s.section + " › " + s.row.join(" / ") + " › " + s.column);
    srcLink.href = root + s.page + "#" + s.anchor;
    src.appendChild(srcLink);
    var pages = cell("Shown on", "fig-pages");
    var list = f.pages || [];
    var names = [];
    list.forEach(function (u) {
      names.push(u, titles[u] || u || "Home");
    });
    function links(from, to) {
      for (var i = from; i < to; i++) {
        if (i) pages.appendChild(document.createTextNode(", "));
        var a = el("a", "", names[2 * i + 1]);
        a.href = root + list[i];
        pages.appendChild(a);
      }
    }
    links(0, Math.min(list.length, SHOWN));
    if (list.length > SHOWN) {
      // a figure on hundreds of pages (a large site) lists its first pages; the rest are made when asked for
      var tail = el("span", "fig-more");
      var more = el("button", "", "and " + (list.length - SHOWN) + " more");
      more.type = "button";
      more.addEventListener("click", function () {
        tail.remove();
        links(SHOWN, list.length);
      });
      tail.append(" ", more);
      pages.appendChild(tail);
    }
    if (!list.length) pages.appendChild(el("span", "fig-none", "not shown on a page"));
    tr.append(key, text, src, pages);
    var hay = [f.key, f.text, describe(s), s.page].concat(names).join(" \u0001 ").toLowerCase();
    return { tr: tr, hay: hay };
  }

  function table(figs, group) {
    var t = el("table", "fig-table");
    var head = el("thead");
    var hr = el("tr");
    ["Key", "Text", "Source cell", "Shown on"].forEach(function (h) {
      var th = el("th", "", h);
      th.scope = "col";
      hr.appendChild(th);
    });
    head.appendChild(hr);
    var body = el("tbody");
    figs.forEach(function (f) {
      var r = row(f);
      r.group = group;
      rows.push(r);
      body.appendChild(r.tr);
    });
    t.append(head, body);
    return t;
  }

  function render(data) {
    var byFile = {};
    data.figures.forEach(function (f) {
      (byFile[f.source.file] = byFile[f.source.file] || []).push(f);
    });
    article.querySelectorAll("section.fig-group[data-file]").forEach(function (section) {
      var figs = byFile[section.getAttribute("data-file")] || [];
      var list = section.querySelector(".fig-list");
      var wrap = el("div", "fig-table-wrap");
      wrap.appendChild(table(figs, section.id));
      list.replaceWith(wrap);
      groups[section.id] = {
        section: section,
        total: figs.length,
        counters: article.querySelectorAll('[data-count-of="' + section.id + '"]'),
      };
    });
    filterBox.hidden = false;
    apply();
    article.setAttribute("data-ready", "true");
    document.dispatchEvent(new CustomEvent("figures:rendered", { detail: { count: rows.length } }));
  }

  function apply() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = {};
    var total = 0;
    rows.forEach(function (r) {
      var ok = words.every(function (w) {
        return r.hay.indexOf(w) !== -1;
      });
      r.tr.hidden = !ok;
      if (ok) {
        shown[r.group] = (shown[r.group] || 0) + 1;
        total++;
      }
    });
    Object.keys(groups).forEach(function (id) {
      var g = groups[id];
      var n = shown[id] || 0;
      g.section.hidden = n === 0;
      g.counters.forEach(function (c) {
        c.textContent = words.length ? n + " of " + g.total : String(g.total);
      });
    });
    count.textContent = words.length
      ? total + (total === 1 ? " figure matches" : " figures match") + " of " + rows.length + "."
      : rows.length + " figures.";
  }

  var timer = 0;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(apply, 60);
  });

  fetch(article.getAttribute("data-figures"))
    .then(function (r) {
      if (!r.ok) throw new Error("figures.json: HTTP " + r.status);
      return r.json();
    })
    .then(render)
    .catch(function () {
      // no data (a page opened from disk): the list of keys in the page stays as it is
      article.setAttribute("data-ready", "fallback");
    });
})();
