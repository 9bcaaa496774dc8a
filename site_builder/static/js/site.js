// Site-wide behaviour. No inline script anywhere: this file and theme.js run under the site's strict CSP.
//
// * Glossary terms show their short definition, and figures (a.fig, every number on the site) a card with
//   the value, its source cell, the pages that show it and, where ours differs, the published value (and its
//   text in each data version, where those differ): on hover,
//   keyboard focus and tap. A first tap opens it; a second tap (or Enter) follows the link; Escape closes it.
//   The pages and published values are read from the key's file of figures/cards/ when a card first opens,
//   then kept.
// * The header's dark-mode toggle (theme.js applies the choice before the page is drawn).
// * Charts have their own files, charts/*.js, loaded only on pages with a chart, and each explorer's data is a
//   file of its own, explorers/NAME.json, fetched with its code.
// * Printing: numbers whose source is on another page get a note number; the sources are listed at the end.
(function () {
  "use strict";
  const script = document.currentScript;
  const ROOT = script && script.src ? script.src.replace(/assets\/js\/site\.js(?:[?#].*)?$/, "") : "";

  // A source cell in one line, "file § section › row › column", as Source.describe writes it (results/figures.py):
  // the card, the printed list of sources and the figure index (figures.js, which runs after this file) use it.
  function describeSource(file, section, row, column) {
    return file + " § " + section + " › " + row.join(" / ") + " › " + column;
  }
  window.SiteSource = { describe: describeSource };

  // A figure link's source cell, from its data-file, data-section, data-row (a JSON list) and data-col.
  function sourceOf(a) {
    let row = [];
    try { row = JSON.parse(a.dataset.row || "[]"); } catch (e) { row = []; }
    if (!a.dataset.file) return "";
    return describeSource(a.dataset.file, a.dataset.section, row, a.dataset.col);
  }

  function closest(target, selector) {
    return target && target.closest ? target.closest(selector) : null;
  }

  // One popover per kind (terms, figures), anchored to the element that opened it and kept inside the viewport.
  function popover(opts) {
    let card = null;
    let owner = null;
    let firstTap = false;
    let hideTimer = 0;

    function ensure() {
      if (card) return card;
      card = document.createElement("div");
      card.className = opts.className;
      card.id = opts.id;
      if (opts.role) card.setAttribute("role", opts.role);
      card.hidden = true;
      card.addEventListener("mouseenter", cancelHide);
      card.addEventListener("mouseleave", function (e) { if (!owner || !owner.contains(e.relatedTarget)) scheduleHide(); });
      document.body.appendChild(card);
      return card;
    }
    function cancelHide() { clearTimeout(hideTimer); hideTimer = 0; }
    function scheduleHide() { cancelHide(); hideTimer = setTimeout(close, 180); }
    function isOpen(el) { return owner === el && !!card && !card.hidden; }

    function place(el) {
      const c = ensure();
      const r = el.getBoundingClientRect();
      const vw = document.documentElement.clientWidth;
      const vh = window.innerHeight;
      c.style.maxWidth = Math.min(opts.width, vw - 16) + "px";
      c.style.left = "0px";
      c.style.top = "0px";
      c.hidden = false;
      const w = c.offsetWidth;
      const h = c.offsetHeight;
      const left = Math.max(8, Math.min(r.left, vw - w - 8));
      let top;
      if (r.bottom + 6 + h <= vh - 8) top = r.bottom + 6;
      else if (r.top - 6 - h >= 8) top = r.top - 6 - h;
      else top = Math.max(8, Math.min(r.bottom + 6, vh - h - 8));
      c.style.left = left + window.scrollX + "px";
      c.style.top = top + window.scrollY + "px";
    }

    function open(el) {
      cancelHide();
      if (isOpen(el)) return;
      const c = ensure();
      if (owner && owner !== el) owner.removeAttribute("aria-describedby");
      owner = el;
      opts.fill(c, el, function () { if (isOpen(el)) place(el); });
      el.setAttribute("aria-describedby", opts.id);
      place(el);
    }

    function close() {
      cancelHide();
      if (owner) owner.removeAttribute("aria-describedby");
      owner = null;
      if (card) card.hidden = true;
    }

    document.addEventListener("mouseover", function (e) {
      const el = closest(e.target, opts.selector);
      if (el) open(el);
      else if (card && card.contains(e.target)) cancelHide();
    });
    document.addEventListener("mouseout", function (e) {
      const el = closest(e.target, opts.selector);
      if (!el || el !== owner) return;
      const to = e.relatedTarget;
      if (el.contains(to) || (card && card.contains(to))) return;
      if (document.activeElement === el) return; // opened by the keyboard too: stays until focus leaves
      scheduleHide();
    });
    document.addEventListener("focusin", function (e) {
      const el = closest(e.target, opts.selector);
      if (el) open(el);
      else if (!(card && card.contains(e.target))) close();
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && owner) close();
    });
    // Touch: the first tap shows the popover, the second follows the link. Whether it was already open is
    // read at pointerdown, before the tap's focus opens it.
    document.addEventListener("pointerdown", function (e) {
      const el = closest(e.target, opts.selector);
      firstTap = e.pointerType === "touch" && !!el && !isOpen(el);
    }, true);
    document.addEventListener("click", function (e) {
      const el = closest(e.target, opts.selector);
      if (!el) {
        if (!(card && card.contains(e.target))) close();
        return;
      }
      if (firstTap) { e.preventDefault(); firstTap = false; open(el); }
    });
    window.addEventListener("resize", function () { if (owner) place(owner); });
    return { open: open, close: close };
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

  popover({
    selector: "a.term", id: "term-tip", className: "term-tip", role: "tooltip", width: 320,
    fill: function (c, el) { c.textContent = el.dataset.short; },
  });

  // ---------------------------------------------------------------------------------------- number cards
  // A card's pages, published figure and data versions come from its key's file of figures/cards/ (written by
  // site_builder/render/figure_cards.py; cardFile is its shard_of): FNV-1a of the key's UTF-8 bytes, modulo 32.
  // Each file is fetched once, when a card of one of its keys first opens (not the whole figure list).
  const SHARDS = 32;
  function cardFile(key) {
    let h = 0x811c9dc5;
    new TextEncoder().encode(key).forEach(function (b) { h = Math.imul(h ^ b, 0x01000193) >>> 0; });
    return "figures/cards/" + String(h % SHARDS).padStart(2, "0") + ".json";
  }
  window.SiteSource.cardFile = cardFile;
  const cardFiles = {};
  function cardOf(key) {
    const file = cardFile(key);
    if (!cardFiles[file]) {
      cardFiles[file] = fetch(ROOT + file, { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(function (d) { return (d && d.figures) || {}; });
      cardFiles[file].catch(function () { delete cardFiles[file]; });
    }
    return cardFiles[file].then(function (figures) { return figures[key]; });
  }
  let navTitles = null;
  function pageTitle(url) {
    if (!navTitles) {
      navTitles = {};
      document.querySelectorAll(".site-header nav .nav-group").forEach(function (g) {
        const group = g.querySelector(".nav-title");
        g.querySelectorAll("a[href]").forEach(function (a) {
          navTitles[a.href] = (group ? group.textContent.trim() + ": " : "") + a.textContent.trim();
        });
      });
    }
    const abs = new URL(url, ROOT).href;
    if (navTitles[abs]) return navTitles[abs];
    if (!url) return "Home";
    const parts = url.replace(/\/$/, "").split("/");
    const last = parts[parts.length - 1].replace(/\.html$/, "");
    const m = /^(\d+)-(.*)$/.exec(last);
    const words = (m ? m[2] : last).replace(/-/g, " ");
    const text = words.charAt(0).toUpperCase() + words.slice(1);
    return m && parts[1] === "decks" ? "Deck " + m[1] + ": " + text : text;
  }

  popover({
    selector: "a.fig", id: "fig-card", className: "fig-card", width: 380,
    fill: function (c, el, reposition) {
      c.textContent = "";
      c.appendChild(node("p", { className: "fig-card-value", text: el.textContent }));
      c.appendChild(node("p", {}, [node("span", { className: "fig-card-label", text: "Source: " }),
        node("a", { href: el.getAttribute("href"), text: sourceOf(el) || el.getAttribute("href") })]));
      const more = node("div", { className: "fig-card-more" }, [node("p", { className: "fig-card-label", text: "Shown on: …" })]);
      c.appendChild(more);
      c.appendChild(node("p", { className: "fig-card-key" }, [node("code", { text: el.dataset.fig })]));
      cardOf(el.dataset.fig).then(function (f) {
        more.textContent = "";
        if (!f) return;
        const here = location.href.split("#")[0];
        const all = f.pages || [];
        const pages = all.filter(function (u) { return new URL(u, ROOT).href !== here; }).slice(0, 8);
        if (pages.length) {
          more.appendChild(node("p", { className: "fig-card-label", text: "Also shown on:" }));
          more.appendChild(node("ul", {}, pages.map(function (u) {
            return node("li", {}, [node("a", { href: ROOT + u, text: pageTitle(u) })]);
          })));
        } else {
          more.appendChild(node("p", { className: "fig-card-label", text: "Shown on no other page." }));
        }
        if (typeof f.count === "number" && f.count > all.length) {
          // the file lists a figure's first pages only: the figure index lists them all
          more.appendChild(node("p", {}, ["Shown on " + f.count + " pages in all: ",
            node("a", { href: ROOT + "figures/", text: "the figure index" }), " lists them."]));
        }
        const ours = el.textContent;
        if (typeof f.published === "string") {
          if (f.published === ours) {
            more.appendChild(node("p", { text: "The same as the published figure." }));
          } else {
            more.appendChild(node("p", { className: "fig-card-differs" }, [
              "Published: ", node("strong", { text: f.published }), " · ours: ", node("strong", { text: ours }),
              ". The results section says why they differ."]));
          }
        }
        if (f.versions && typeof f.versions === "object") {
          // the figure's text in each vendored version of its data, where those differ
          const parts = ["Differs between data versions: "];
          Object.keys(f.versions).forEach(function (v, i) {
            if (i) parts.push(" → ");
            parts.push(v + " ", node("strong", { text: String(f.versions[v]) }));
          });
          more.appendChild(node("p", { className: "fig-card-differs" }, parts));
        }
        reposition();
      }, function () {
        more.textContent = "";
        more.appendChild(node("p", {}, ["The pages that show it: ", node("a", { href: ROOT + "figures/", text: "the figure index" })]));
        reposition();
      });
    },
  });

  // ---------------------------------------------------------------------------------------- dark mode
  const toggle = document.querySelector("[data-theme-toggle]");
  if (toggle) {
    const rootEl = document.documentElement;
    const sync = function () { toggle.setAttribute("aria-pressed", String(rootEl.getAttribute("data-theme") === "dark")); };
    toggle.hidden = false;
    sync();
    toggle.addEventListener("click", function () {
      const next = rootEl.getAttribute("data-theme") === "dark" ? "light" : "dark";
      try { localStorage.setItem("theme", next); } catch (e) { /* private mode: for this page only */ }
      rootEl.setAttribute("data-theme", next);
      sync();
      window.dispatchEvent(new CustomEvent("themechange", { detail: { theme: next } }));
    });
    if (window.matchMedia) {
      const m = window.matchMedia("(prefers-color-scheme: dark)");
      if (m.addEventListener) m.addEventListener("change", function () { setTimeout(sync, 0); });
    }
  }

  // ---------------------------------------------------------------------------------------- chart code
  // Plotly and the explorers' code (listed in <script id="chart-scripts">) load after the page is parsed, so
  // DOMContentLoaded does not wait for them: Plotly and the chart files at once, then each chart's port and page code
  // when the chart comes near the viewport, and every other chart's when the page has loaded and the browser is
  // idle. Scripts inserted with async = false run in the order they were inserted (Plotly first).
  //
  // A deck being presented shows one slide at a time: deck.js holds its slides' charts (SiteCharts.hold) and has a
  // slide's drawn when the slide or a slide beside it is shown (SiteCharts.load), and all of them when the overview
  // opens or the presentation ends (SiteCharts.release). A deck opened presenting (?present, a speaker-view preview)
  // holds them before the page is parsed to its end, so Plotly itself loads only when a shown slide has a chart.
  window.SiteCharts = { hold: function () {}, load: function () {}, release: function () {} };
  const spec = document.getElementById("chart-scripts");
  if (spec) {
    const list = JSON.parse(spec.textContent);
    const inserted = new Set();
    const add = function (src) {
      if (inserted.has(src)) return;
      inserted.add(src);
      const el = document.createElement("script");
      el.src = src;
      el.async = false;
      document.body.appendChild(el);
    };
    let started = false;
    const start = function () {
      if (started) return;
      started = true;
      list.first.forEach(add);
    };
    // The files of a list named for an explorer: ".../NAME.js" (its code), ".../NAME.json" (its payload)
    const named = function (srcs, name, ext) {
      return srcs.filter(function (src) { return src.slice(-name.length - ext.length - 1) === "/" + name + ext; });
    };
    // An explorer's payload is a file of the site (explorers/NAME.json, listed under "data"), shared by every page
    // that shows it: fetched once, it becomes the page's <script type="application/json" id="data-NAME"> (where
    // charts/mount.js reads it) before the explorer's code is added.
    const payloads = {};
    const payload = function (name) {
      if (!payloads[name]) {
        const src = named(list.data || [], name, ".json")[0];
        payloads[name] = !src || document.getElementById("data-" + name) ? Promise.resolve() : fetch(src).then(function (r) {
          if (!r.ok) throw new Error(src + ": HTTP " + r.status);
          return r.text();
        }).then(function (text) {
          const block = document.createElement("script");
          block.type = "application/json";
          block.id = "data-" + name;
          block.textContent = text;
          document.body.appendChild(block);
        });
      }
      return payloads[name];
    };
    const figures = Array.from(document.querySelectorAll("figure.chart[data-chart]"));
    const codeOf = function (fig) {
      const name = fig.dataset.chart;
      start();
      payload(name).then(function () {
        named(list.charts, name, ".js").forEach(add);
      }, function (e) {
        // the chart cannot be drawn: say so where it would be (its loading note), and in the console
        const note = fig.querySelector(".chart-loading");
        if (note) note.textContent = "This chart's data did not load (" + e.message + "); reload the page to try again.";
        console.error("chart " + name + ": its data did not load (" + e.message + ")");
      });
    };
    // the elements whose charts wait to be asked for (a presented deck's slides)
    const holders = new Set();
    const held = function (fig) {
      return Array.from(holders).some(function (h) { return h.contains(fig); });
    };
    const rest = function () { figures.forEach(function (f) { if (!held(f)) codeOf(f); }); };
    window.SiteCharts = {
      hold: function (el) { holders.add(el); },
      // the charts inside any of `els` (elements; null or undefined skipped), held or not
      load: function (els) {
        figures.forEach(function (f) {
          if (els.some(function (el) { return el && el.contains(f); })) codeOf(f);
        });
      },
      release: function (el) { holders.delete(el); rest(); },
    };
    if ("IntersectionObserver" in window) {
      const seen = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) {
          if (e.isIntersecting && !held(e.target)) { seen.unobserve(e.target); codeOf(e.target); }
        });
      }, { rootMargin: "600px 0px" });
      figures.forEach(function (f) { seen.observe(f); });
      const idle = function () { if (window.requestIdleCallback) requestIdleCallback(rest, { timeout: 3000 }); else setTimeout(rest, 200); };
      if (document.readyState === "complete") idle(); else window.addEventListener("load", idle);
    } else {
      // no observer: every chart not held at once (deck.js holds a presented deck's before the page's end)
      document.addEventListener("DOMContentLoaded", rest);
    }
    // Plotly and the chart files, unless every chart of the page is held: deck.js, which runs after this file and
    // before DOMContentLoaded, holds a deck's when it opens presenting
    document.addEventListener("DOMContentLoaded", function () {
      if (!figures.length || !figures.every(held)) start();
    });
  }

  // ---------------------------------------------------------------------------------------- print
  // Numbers whose source is on another page get a note number (shown in print only, by print.css), and the page
  // ends with the list of those sources. Decks print one slide per page with their own source lines instead.
  let printed = false;
  function printSources() {
    if (printed) return;
    printed = true;
    const main = document.getElementById("main");
    if (!main || document.querySelector(".deck, article.figures")) return;
    const here = location.href.split("#")[0];
    const notes = new Map();
    main.querySelectorAll("a.fig").forEach(function (a) {
      if (a.href.split("#")[0] === here) return;
      const k = a.href;
      if (!notes.has(k)) notes.set(k, { n: notes.size + 1, src: sourceOf(a), href: a.href });
      a.dataset.note = String(notes.get(k).n);
    });
    if (!notes.size) return;
    const list = node("ol");
    notes.forEach(function (v) {
      list.appendChild(node("li", { value: String(v.n) }, [v.src + " ", node("a", { href: v.href, text: v.href })]));
    });
    main.appendChild(node("section", { className: "print-sources" }, [
      node("h2", { text: "Sources of the numbers on this page" }), list]));
  }
  // A plot keeps the width it was drawn at; on paper (about 680 CSS px across) a wider one is scaled down to fit
  // while printing, then back. (Decks lay out their own slides for print, in deck.js.)
  const PAPER = 660;
  window.addEventListener("beforeprint", function () {
    printSources();
    if (document.querySelector(".deck")) return;
    document.querySelectorAll("figure.chart .js-plotly-plot").forEach(function (gd) {
      if (gd.offsetWidth > PAPER) gd.style.zoom = (PAPER / gd.offsetWidth).toFixed(3);
    });
  });
  window.addEventListener("afterprint", function () {
    document.querySelectorAll("figure.chart .js-plotly-plot").forEach(function (gd) { gd.style.zoom = ""; });
  });
  if (window.requestIdleCallback) requestIdleCallback(printSources, { timeout: 2000 });
  else setTimeout(printSources, 300);
})();

// The proposed system, end to end (a `::: chain` block): each variant's steps are an ordered list under a
// level-4 heading. The script adds a variant switch, Play / Pause, Previous and Next; ← and → step while
// focus is in the block. Without the script, and under prefers-reduced-motion, every step shows at once
// and nothing moves (stepping by hand still works).
(function () {
  "use strict";
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  document.querySelectorAll(".chain").forEach(function (box, n) {
    const heads = Array.from(box.querySelectorAll(":scope > h4"));
    const lists = heads.map(function (h) { return h.nextElementSibling; }).filter(function (el) { return el && el.tagName === "OL"; });
    if (!lists.length || lists.length !== heads.length) return;
    let variant = 0, step = -1, timer = null;
    box.classList.add("chain-live");
    box.tabIndex = -1;
    const bar = document.createElement("div");
    bar.className = "chain-controls";
    const switcher = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = "Variant";
    switcher.appendChild(legend);
    heads.forEach(function (h, i) {
      const id = "chain-" + n + "-v" + i;
      const input = document.createElement("input");
      input.type = "radio"; input.name = "chain-" + n; input.id = id; input.checked = i === 0;
      const label = document.createElement("label");
      label.htmlFor = id;
      label.textContent = h.textContent.split(":")[0];
      input.addEventListener("change", function () { if (input.checked) show(i); });
      switcher.appendChild(input);
      switcher.appendChild(label);
    });
    function button(text, fn) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = text; b.addEventListener("click", fn);
      bar.appendChild(b);
      return b;
    }
    bar.appendChild(switcher);
    const play = button("Play", function () { if (timer) stop(); else start(); });
    button("Previous step", function () { stop(); move(-1); });
    button("Next step", function () { stop(); move(1); });
    const status = document.createElement("p");
    status.className = "chain-status";
    status.setAttribute("aria-live", "polite");
    bar.appendChild(status);
    box.insertBefore(bar, box.firstChild);
    if (still) { play.disabled = true; play.title = "Animation off: your system asks for reduced motion"; }

    function items() { return Array.from(lists[variant].children); }
    function render() {
      heads.forEach(function (h, i) { h.hidden = i !== variant; lists[i].hidden = i !== variant; });
      const all = items();
      all.forEach(function (li, i) {
        li.classList.toggle("is-active", i === step);
        li.classList.toggle("is-done", step >= 0 && i < step);
        li.classList.toggle("is-waiting", step >= 0 && i > step);
      });
      box.dataset.step = String(step);
      box.dataset.variant = String(variant);
      status.textContent = step < 0 ? "All " + all.length + " steps shown." :
        "Step " + (step + 1) + " of " + all.length + ": " + (all[step].querySelector("strong") || all[step]).textContent;
    }
    function show(i) { variant = i; step = -1; stop(); render(); }
    function move(d) {
      const count = items().length;
      step = step < 0 ? (d > 0 ? 0 : count - 1) : Math.max(0, Math.min(count - 1, step + d));
      render();
    }
    function start() {
      if (still) return;
      play.textContent = "Pause";
      box.dataset.playing = "true";
      if (step < 0 || step >= items().length - 1) step = -1;
      move(1);
      timer = setInterval(function () {
        if (step >= items().length - 1) { stop(); return; }
        move(1);
      }, 1600);
    }
    function stop() {
      if (timer) clearInterval(timer);
      timer = null;
      play.textContent = "Play";
      box.dataset.playing = "false";
    }
    box.addEventListener("keydown", function (e) {
      if (e.target.tagName === "INPUT") return;
      if (e.key === "ArrowRight") { e.preventDefault(); stop(); move(1); }
      else if (e.key === "ArrowLeft") { e.preventDefault(); stop(); move(-1); }
    });
    render();
  });
})();
