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
  var rows = []; // {f, tr (made when first shown), hay}
  var SHOWN = 8; // pages listed in a row before its "and N more" button
  // Rows a file's table shows until its "Show all" button is pressed (or the page is printed): the page opens
  // with a few thousand elements rather than tens of thousands (14 to a row), and the filter searches every row
  var FIRST = 100;
  var groups = {}; // group id -> {section, total, counters, body, rows, made, all, more}

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

  function pagesOf(f) { // [url, title, url, title, ...] of the pages that show f
    var names = [];
    (f.pages || []).forEach(function (u) {
      names.push(u, titles[u] || u || "Home");
    });
    return names;
  }

  function hayOf(f) { // what the filter searches: key, text, source, page URLs and titles
    var s = f.source;
    return [f.key, f.text, describe(s), s.page].concat(pagesOf(f)).join(" \u0001 ").toLowerCase();
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
    var names = pagesOf(f);
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
    return tr;
  }

  function table() {
    var t = el("table", "fig-table");
    var head = el("thead");
    var hr = el("tr");
    ["Key", "Text", "Source cell", "Shown on"].forEach(function (h) {
      var th = el("th", "", h);
      th.scope = "col";
      hr.appendChild(th);
    });
    head.appendChild(hr);
    t.append(head, el("tbody"));
    return t;
  }

  // The rows of g up to its index `upto` (excluded) are in its table, in order; a row made here is hidden until
  // apply() shows it
  function make(g, upto) {
    while (g.made < upto) {
      var r = g.rows[g.made++];
      r.tr = row(r.f);
      r.tr.hidden = true;
      g.body.appendChild(r.tr);
    }
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
      var t = table();
      var more = el("button", "fig-show-all");
      more.type = "button";
      more.hidden = true;
      wrap.append(t, more);
      list.replaceWith(wrap);
      var g = {
        section: section,
        total: figs.length,
        counters: article.querySelectorAll('[data-count-of="' + section.id + '"]'),
        body: t.tBodies[0],
        rows: figs.map(function (f) {
          var r = { f: f, tr: null, hay: hayOf(f) };
          rows.push(r);
          return r;
        }),
        made: 0,
        all: false,
        more: more,
      };
      more.addEventListener("click", function () {
        g.all = true;
        apply();
        // the button shows only while FIRST rows are, so the first row it brought is the next one
        var next = g.body.querySelectorAll("tr:not([hidden])")[FIRST];
        if (next) next.querySelector("a.fig").focus();
      });
      groups[section.id] = g;
    });
    filterBox.hidden = false;
    apply();
    // on paper every row is there: the printed index is the whole list
    window.addEventListener("beforeprint", function () {
      Object.keys(groups).forEach(function (id) {
        groups[id].all = true;
      });
      apply();
    });
    article.setAttribute("data-ready", "true");
  }

  function apply() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var total = 0;
    Object.keys(groups).forEach(function (id) {
      var g = groups[id];
      var limit = g.all ? Infinity : FIRST;
      var n = 0; // rows of g that match
      g.rows.forEach(function (r, i) {
        var ok = words.every(function (w) {
          return r.hay.indexOf(w) !== -1;
        });
        if (ok) n++;
        var show = ok && n <= limit;
        if (show && !r.tr) make(g, i + 1);
        if (r.tr) r.tr.hidden = !show;
      });
      total += n;
      g.section.hidden = n === 0;
      g.more.hidden = n <= limit;
      g.more.textContent = "Show all " + n + (words.length ? " matching figures" : " figures") + " of this file";
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
