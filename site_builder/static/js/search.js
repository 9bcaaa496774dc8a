/* The header's search box, on the site's own full-text index (search/, written by the build's search phase:
 * site_builder/search/).
 *
 * When the reader starts searching it loads search/index.json (the pages, and the term file of each beginning of
 * terms) and search_index.js (the build's word normalisation, rule for rule, and the ranking: BM25; every
 * query word must match, the last one also as a prefix, as it is typed, else the pages matching most of the words
 * come first). Only the term files of the beginnings the query's words have are fetched (each once), and
 * only the shown pages' fragments (their words and anchors), and the matches found in them.
 *
 * Each result lands where its words are: on the slide, section, table row or glossary entry that holds them
 * (the last element with an id before the first match, from the anchors the build records), not only on the
 * page. Figure keys are indexed (every figure link carries its key), so "exp.final.B" finds its results row and
 * the pages that show it. No inline script, no request off the site: the index is loaded from the site itself.
 */
(function () {
  "use strict";

  var box = document.querySelector(".site-search[data-search-root]");
  if (!box) return;
  var root = box.getAttribute("data-search-root") || "";
  var input = box.querySelector(".site-search-input");
  var panel = box.querySelector(".site-search-results");
  var status = box.querySelector(".site-search-status");
  var LANDING = /^(h[2-6]|section|tr|div|figure|li|dt|dd|table)$/;
  var HEADING = /^h[1-6]$/;
  var KEY = /^[a-z][\w-]*(\.[\w-]+)+$/i; // a figure key, e.g. exp.final.B
  var KEY_WORD = /^[a-z][\w-]*(\.[\w-]+){2,}\.$/i; // a key as indexed beside its number ("exp.final.B.")
  var FORMAT = 4; // the index layout this script reads (site_builder/search/__init__.py)
  var MAX_PAGES = 8;
  var MAX_PER_PAGE = 3;
  var DEBOUNCE_MS = 100;
  var loading = null;
  var fragments = new Map(); // file name: a promise of its parsed fragment
  var termFiles = new Map(); // file name: a promise of its parsed term file
  var seq = 0;
  var timer = 0;

  box.hidden = false;

  function url(path) {
    return new URL(root + path, document.baseURI).href;
  }

  function getJSON(path) {
    return fetch(url(path), { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(r.status + " " + path);
      return r.json();
    });
  }

  function script(path) {
    if (window.SearchIndex) return Promise.resolve();
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = url(path);
      s.onload = resolve;
      s.onerror = function () {
        reject(new Error(path));
      };
      document.head.appendChild(s);
    });
  }

  function load() {
    if (!loading) {
      loading = Promise.all([getJSON("search/index.json"), script("assets/js/search_index.js")]).then(function (r) {
        return window.SearchIndex.prepare(r[0], FORMAT);
      });
      loading.catch(function () {
        loading = null;
      });
    }
    return loading;
  }

  /* The query's groups of terms (SearchIndex.groups), once every term file they look in is added. */
  function grouped(idx, query) {
    var S = window.SearchIndex;
    var gs = S.groups(idx, query);
    var wanted = S.missing(idx);
    if (!wanted.length) return Promise.resolve(gs);
    return Promise.all(
      wanted.map(function (w) {
        return termFile(w.file).then(function (raw) {
          S.add(idx, w.key, raw);
        });
      }),
    ).then(function () {
      return grouped(idx, query);
    });
  }

  /* The promise of what load() gives, kept in memo under key: made once, made again after a failure. */
  function once(memo, key, load) {
    if (!memo.has(key)) {
      var p = load();
      p.catch(function () {
        memo.delete(key);
      });
      memo.set(key, p);
    }
    return memo.get(key);
  }

  function termFile(name) {
    return once(termFiles, name, function () {
      return getJSON("search/terms/" + name + ".json");
    });
  }

  function fragment(name) {
    return once(fragments, name, function () {
      return getJSON("search/fragments/" + name + ".json").then(function (f) {
        return {
          title: f.title,
          all: f.words ? f.words.split(" ") : [],
          anchors: f.anchors.map(function (a) {
            return { id: a[0], element: a[1], location: a[2], text: a[3] };
          }),
          terms: null, // each word's terms, computed once when first searched (SearchIndex.locations)
        };
      });
    });
  }

  /* A page's result as the rendering below reads it: url, meta.title, its words, anchors and the matches. */
  function pageData(page, frag, wanted) {
    return {
      url: page.url,
      meta: { title: frag.title || page.title },
      all: frag.all,
      anchors: frag.anchors,
      locations: window.SearchIndex.locations(frag, wanted),
    };
  }

  function href(url) {
    return url.charAt(0) === "/" ? root + url.slice(1) : url;
  }

  /* The anchors a page result's matches fall under: [{anchor, hits: [locations]}], most hits first. */
  function regions(data) {
    var anchors = (data.anchors || []).slice().sort(function (a, b) {
      return a.location - b.location;
    });
    var byAnchor = new Map();
    (data.locations || []).forEach(function (loc) {
      var best = null;
      for (var i = 0; i < anchors.length && anchors[i].location <= loc; i++) {
        var a = anchors[i];
        if (!a.id || !LANDING.test(a.element)) continue;
        if (best === null || a.location > best.location) best = a; // at a tie the outer element (a slide) wins
      }
      var key = best ? best.id : "";
      if (!byAnchor.has(key)) byAnchor.set(key, { anchor: best, hits: [] });
      byAnchor.get(key).hits.push(loc);
    });
    return Array.from(byAnchor.values()).sort(function (a, b) {
      return b.hits.length - a.hits.length || a.hits[0] - b.hits[0];
    });
  }

  /* For a figure key, the results page whose table row holds the figure comes first. */
  function sourceFirst(results, key) {
    function isSource(data) {
      var all = words(data);
      return regions(data).some(function (reg) {
        return (
          reg.anchor &&
          reg.anchor.element === "tr" &&
          reg.hits.some(function (h) {
            return (all[h] || "").toLowerCase().replace(/\.$/, "") === key;
          })
        );
      });
    }
    var first = results.filter(isSource);
    return first.concat(
      results.filter(function (d) {
        return first.indexOf(d) === -1;
      }),
    );
  }

  function words(data) {
    return data.all;
  }

  /* A region's title: its heading's text, the slide's title, or the section above and the row's first words. */
  function title(data, anchor, all) {
    if (!anchor) return data.meta && data.meta.title ? data.meta.title : "";
    if (anchor.text) return anchor.text;
    var anchors = data.anchors || [];
    var same = anchors.find(function (a) {
      return a.location === anchor.location && HEADING.test(a.element) && a.text;
    });
    if (same) return same.text;
    var above = null;
    anchors.forEach(function (a) {
      if (HEADING.test(a.element) && a.text && a.location <= anchor.location) above = a;
    });
    var lead = all.slice(anchor.location, anchor.location + 6).join(" ");
    return (above ? above.text + " › " : "") + lead + (lead ? "…" : "");
  }

  /* The words around a region's first match, the matches marked (built as DOM nodes: no HTML is parsed). */
  function excerpt(all, hits, start) {
    var first = hits[0];
    var from = Math.max(start, first - 8);
    var to = Math.min(all.length, from + 24);
    var marked = new Set(hits);
    var p = document.createElement("span");
    p.className = "site-search-excerpt";
    if (from > 0) p.appendChild(document.createTextNode("… "));
    for (var i = from; i < to; i++) {
      if (!marked.has(i) && KEY_WORD.test(all[i])) continue; // the keys are indexed, not read
      if (i > from) p.appendChild(document.createTextNode(" "));
      if (marked.has(i)) {
        var m = document.createElement("mark");
        m.textContent = all[i];
        p.appendChild(m);
      } else {
        p.appendChild(document.createTextNode(all[i]));
      }
    }
    if (to < all.length) p.appendChild(document.createTextNode(" …"));
    return p;
  }

  function place() {
    if (panel.hidden) return;
    var r = input.getBoundingClientRect();
    var vw = document.documentElement.clientWidth;
    var width = Math.min(640, vw - 16);
    panel.style.width = width + "px";
    panel.style.left = Math.max(8, Math.min(r.left, vw - width - 8)) + "px";
    panel.style.top = Math.max(8, r.bottom + 4) + "px";
  }

  function open() {
    panel.hidden = false;
    place();
  }

  function close() {
    panel.hidden = true;
  }

  function message(text) {
    status.textContent = text;
    panel.textContent = "";
    var p = document.createElement("p");
    p.className = "site-search-message";
    p.textContent = text;
    panel.appendChild(p);
    open();
  }

  function show(results, total, query, partial) {
    panel.textContent = "";
    if (!results.length) {
      message("No results for “" + query + "”.");
      return;
    }
    status.textContent = partial
      ? "No page has every word of “" + query + "”; " + total + (total === 1 ? " page has" : " pages have") + " some."
      : total + (total === 1 ? " page matches" : " pages match") + " “" + query + "”.";
    var ol = document.createElement("ol");
    ol.className = "site-search-list";
    results.forEach(function (data) {
      var all = words(data);
      var li = document.createElement("li");
      li.className = "site-search-page";
      var regs = regions(data).slice(0, MAX_PER_PAGE);
      var page = document.createElement("a");
      page.className = "site-search-title";
      page.href = href(data.url);
      page.textContent = (data.meta && data.meta.title) || data.url;
      li.appendChild(page);
      var ul = document.createElement("ul");
      regs.forEach(function (reg) {
        var item = document.createElement("li");
        var a = document.createElement("a");
        a.className = "site-search-hit";
        a.href = href(data.url) + (reg.anchor ? "#" + encodeURIComponent(reg.anchor.id) : "");
        if (reg.anchor) a.setAttribute("data-anchor", reg.anchor.id);
        var t = document.createElement("span");
        t.className = "site-search-hit-title";
        t.textContent = title(data, reg.anchor, all);
        a.appendChild(t);
        a.appendChild(excerpt(all, reg.hits, reg.anchor ? reg.anchor.location : 0));
        item.appendChild(a);
        ul.appendChild(item);
      });
      if (regs.length) li.appendChild(ul);
      ol.appendChild(li);
    });
    panel.appendChild(ol);
    open();
  }

  function search(query) {
    var mine = seq;
    return load()
      .then(function (idx) {
        if (mine !== seq) return null;
        return grouped(idx, query).then(function (gs) {
          return { idx: idx, gs: gs };
        });
      })
      .then(function (got) {
        if (!got || mine !== seq) return null;
        var S = window.SearchIndex;
        var idx = got.idx;
        var gs = got.gs;
        var ranked = gs.length ? S.rank(idx, gs) : { pages: [], partial: false };
        var key = KEY.test(query);
        var top = ranked.pages.slice(0, key ? 3 * MAX_PAGES : MAX_PAGES);
        var wanted = S.wanted(gs);
        return Promise.all(
          top.map(function (r) {
            var page = idx.pages[r.page];
            return fragment(page.fragment).then(function (f) {
              return pageData(page, f, wanted);
            });
          }),
        ).then(function (data) {
          if (mine !== seq) return;
          if (key) data = sourceFirst(data, query.toLowerCase());
          show(data.slice(0, MAX_PAGES), ranked.pages.length, query, ranked.partial);
        });
      })
      .catch(function () {
        if (mine !== seq) return;
        message(
          location.protocol === "file:"
            ? "Search needs the site served over HTTP (for example with make serve)."
            : "The search index could not be loaded.",
        );
      });
  }

  function run() {
    var query = input.value.trim();
    ++seq;
    clearTimeout(timer);
    if (!query) {
      status.textContent = "";
      panel.textContent = "";
      close();
      return;
    }
    timer = setTimeout(function () {
      search(query);
    }, DEBOUNCE_MS);
  }

  function links() {
    return Array.from(panel.querySelectorAll("a"));
  }

  input.addEventListener("input", run);
  input.addEventListener("focus", function () {
    load().catch(function () {}); // start loading the index as soon as the reader is in the box
  });
  input.addEventListener("click", function () {
    if (panel.childElementCount && input.value.trim()) open();
  });
  input.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown" && panel.childElementCount && input.value.trim()) {
      var first = links()[0];
      if (first) {
        e.preventDefault();
        open();
        first.focus();
      }
    } else if (e.key === "Enter") {
      var best = panel.querySelector(".site-search-hit") || panel.querySelector("a");
      if (best && input.value.trim()) {
        e.preventDefault();
        best.click();
      }
    } else if (e.key === "Escape") {
      close();
    }
  });
  panel.addEventListener("keydown", function (e) {
    var all = links();
    var i = all.indexOf(document.activeElement);
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      var next = e.key === "ArrowDown" ? i + 1 : i - 1;
      if (next < 0) input.focus();
      else if (next < all.length) all[next].focus();
    } else if (e.key === "Escape") {
      e.preventDefault();
      close();
      input.focus();
    }
  });
  panel.addEventListener("click", function (e) {
    var a = e.target.closest("a");
    if (a) close(); // the same page's anchor: the panel must not stay over it
  });
  document.addEventListener("click", function (e) {
    if (!box.contains(e.target)) close();
  });
  box.addEventListener("focusout", function (e) {
    if (e.relatedTarget && !box.contains(e.relatedTarget)) close();
  });
  window.addEventListener("resize", place);
  window.addEventListener("scroll", place, { passive: true });
})();
