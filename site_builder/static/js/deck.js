// A deck reads as an article; "Present" shows one 16:9 slide at a time with reveal.js (vendored,
// assets/vendor/reveal/) and its own tools: overview (O), full screen (F), the help overlay (?), slide
// numbers, touch swipes, and the notes plugin's speaker view (S: current and next slide, notes, timer).
// The slides themselves are moved into the presentation and back, so charts keep their state.
//
// URLs: presenting, the address is ?present#slide-id, one history entry per slide shown (pushState), so a
// reload reopens that slide and Back / Forward step through the slides; leaving writes #slide-id and
// scrolls the article to that slide. The speaker view (speaker.html, a file of the site: the plugin's own
// page would be written inline into about:blank, which the CSP forbids) loads this page with ?receiver.
(function () {
  "use strict";
  const frame = document.querySelector(".deck-frame");
  const slides = document.querySelector(".deck-slides");
  const button = document.querySelector("[data-present]");
  if (!frame || !slides || !button) return;
  const params = new URLSearchParams(location.search);
  // A preview inside the speaker view: its URL is the notes plugin's (?receiver, #/h/v for the slide). Only the
  // current-slide preview reports its slide changes (postMessageEvents=true); the next-slide preview, moved one
  // slide on by the view, must not, or the view would hand that move to the deck and walk it to its end.
  const receiver = params.has("receiver");
  const reports = receiver && params.get("postMessageEvents") === "true";
  // the next-slide preview: the view's "Upcoming" label sits over its top left corner (deck.css moves it down)
  if (receiver && !reports) document.documentElement.classList.add("deck-upcoming");
  let deck = null;
  let overlay = null;
  let speaker = null;
  let restoring = false; // moving to a slide because of the URL (load, Back / Forward): no new entry

  function sections() { return Array.from(slides.querySelectorAll(":scope > section.slide")); }

  function indexOf(id) {
    const i = sections().findIndex(function (s) { return s.id === id; });
    return i < 0 ? 0 : i;
  }
  function hashId() {
    const h = decodeURIComponent(location.hash.slice(1));
    const m = receiver ? /^\/(\d+)/.exec(h) : null; // a preview's #/h/v
    if (m) { const s = sections()[Number(m[1])]; return s ? s.id : ""; }
    return h;
  }

  function presentURL(id) { return location.pathname + "?present#" + encodeURIComponent(id); }
  function articleURL(id) { return location.pathname + (id ? "#" + encodeURIComponent(id) : ""); }

  function writeURL(url) {
    if (receiver || restoring) return;
    if (location.pathname + location.search + location.hash !== url) history.pushState({ deck: true }, "", url);
  }

  function resizeCharts() { window.dispatchEvent(new Event("resize")); }

  // Cards (numbers' sources, terms' definitions) opened on one slide do not stay over the next.
  function closeCards() {
    document.querySelectorAll("#fig-card, #term-tip").forEach(function (c) { c.hidden = true; });
  }
  function cardOpen() {
    return Array.from(document.querySelectorAll("#fig-card, #term-tip")).some(function (c) { return !c.hidden; });
  }

  // Showing a slide: nothing on it is scaled (deck.css sizes everything for a 1280 x 720 slide); its charts
  // are laid out again at the slide's width once it is shown. While presenting, a slide's charts are drawn when it
  // or a slide beside it is shown (site.js holds them until then: the others are not seen), all of them when the
  // overview shows every slide or the presentation ends.
  function shown(section) {
    closeCards();
    if (!section) return;
    window.SiteCharts.load([section.previousElementSibling, section, section.nextElementSibling]);
    resizeCharts();
  }

  // Keys typed into a focused control act on the control: reveal.js gets no key from a select, button,
  // slider, checkbox or text field. Escape there hands the keys back to the slide.
  function inControl(el) {
    return !!el && el.closest && !!el.closest("select, button, input, textarea, [contenteditable], [role=slider], [role=listbox], summary");
  }

  function onEscape() {
    if (!deck) return;
    if (cardOpen()) { closeCards(); return; }
    if (deck.isOverlayOpen && deck.isOverlayOpen()) { deck.toggleHelp(false); return; } // reveal 5: closeOverlay is internal
    if (deck.isOverview()) { deck.toggleOverview(false); return; }
    leave();
  }

  // S opens the speaker view (this page's, not the plugin's own: see the top of this file).
  function bindSpeakerKey() {
    deck.removeKeyBinding(83);
    deck.addKeyBinding({ keyCode: 83, key: "S", description: "Speaker view: current and next slide, notes, timer" }, openSpeakerView);
  }

  let views = 0; // speaker windows this page has opened
  let served = null; // the presentation whose notes plugin serves a view already (it serves no other)
  function openSpeakerView() {
    if (!deck) return;
    if (speaker && !speaker.closed) { speaker.focus(); return; }
    // The notes plugin serves the first view that reaches it and no later one, so a view opened again after its
    // window was closed gets an instance of the plugin of its own (which binds S to itself: S is bound again).
    // A presentation begun again since has a plugin of its own that serves no view yet.
    if (served === deck) {
      deck.registerPlugin("notes-" + views, RevealNotes());
      bindSpeakerKey();
    }
    served = deck;
    views += 1;
    speaker = window.open(slides.getAttribute("data-speaker"), "reveal.js - Notes", "width=1100,height=700");
    if (!speaker) return;
    // The plugin's own handshake, started from here: "connect" until the view answers; from its first
    // heartbeat on, the notes plugin sends it every slide change, its notes and the timings.
    const url = location.protocol + "//" + location.host + location.pathname + "?present";
    const timer = setInterval(function () {
      if (!speaker || speaker.closed || !deck) { clearInterval(timer); return; }
      speaker.postMessage(JSON.stringify({ namespace: "reveal-notes", type: "connect", state: deck.getState(), url: url }), "*");
    }, 500);
    // The plugin takes the view on at its first heartbeat, a second after the view connected; the view's first
    // calls on the deck (its timer's) come before that, and are answered here as the plugin answers them.
    const view = speaker;
    window.addEventListener("message", function answered(e) {
      if (e.source !== view) return;
      let data = null;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      if (!data || data.namespace !== "reveal-notes") return;
      if (data.type === "connected") clearInterval(timer);
      else if (data.type === "heartbeat") { clearInterval(timer); window.removeEventListener("message", answered); }
      else if (data.type === "call" && deck && typeof deck[data.methodName] === "function") {
        const result = deck[data.methodName].apply(deck, data.arguments || []);
        view.postMessage(JSON.stringify({ namespace: "reveal-notes", type: "return", result: result, callId: data.callId }), "*");
      }
    });
  }

  function toolbar() {
    const bar = document.createElement("div");
    bar.className = "deck-present-tools";
    [["Slides", "All slides (O)", function () { deck.toggleOverview(); }, "deck-overview"],
      ["?", "Keyboard shortcuts (?)", function () { deck.toggleHelp(); }, "deck-help"],
      ["✕ Leave", "Leave the presentation (Escape)", function () { leave(); }, "deck-leave"]].forEach(function (b) {
      const el = document.createElement("button");
      el.type = "button";
      el.className = b[3];
      el.textContent = b[0];
      el.title = b[1];
      el.setAttribute("aria-label", b[1]);
      el.addEventListener("click", function (e) { e.stopPropagation(); b[2](); if (deck && b[3] !== "deck-leave") deck.getRevealElement().focus(); });
      bar.appendChild(el);
    });
    return bar;
  }

  // Printing (Ctrl+P, pdf.py) lays the article's slides out one per page: print's own fit, not the
  // presentation's (which scales nothing).
  function fit(section, height) {
    const body = section.querySelector(".slide-body");
    if (!body) return;
    body.style.zoom = "";
    const over = section.scrollHeight - height;
    if (over > 1 && body.offsetHeight > 0) {
      body.style.zoom = Math.max(0.4, (body.offsetHeight - over) / body.offsetHeight).toFixed(3);
    }
  }
  function unfit() { sections().forEach(function (s) { const b = s.querySelector(".slide-body"); if (b) b.style.zoom = ""; }); }
  function fitForPrint() {
    if (deck) return;
    document.documentElement.classList.add("deck-print-measure");
    sections().forEach(function (s) { fit(s, 720); });
    document.documentElement.classList.remove("deck-print-measure");
  }
  window.addEventListener("beforeprint", fitForPrint);
  window.addEventListener("afterprint", unfit);

  // reveal.js and its notes plugin (about 50 kB gzipped) load when the deck is first presented: a reader of the
  // article never fetches them. The files are listed, in order, in the slides' data-present-scripts.
  let loading = null;
  function loadReveal() {
    if (typeof Reveal !== "undefined") return Promise.resolve();
    if (!loading) {
      loading = (slides.getAttribute("data-present-scripts") || "").split(/\s+/).filter(Boolean).reduce(function (p, src) {
        return p.then(function () {
          return new Promise(function (resolve, reject) {
            const s = document.createElement("script");
            s.src = src;
            s.onload = resolve;
            s.onerror = function () { reject(new Error(src + ": not loaded")); };
            document.head.appendChild(s);
          });
        });
      }, Promise.resolve());
      loading.catch(function () { loading = null; });
    }
    return loading;
  }

  function present(startId) {
    unfit();
    if (deck) { deck.slide(indexOf(startId)); return; }
    window.SiteCharts.hold(slides);
    if (typeof Reveal === "undefined") {
      // Until reveal.js is in, the slides are not laid out in the article (deck.css): they are about to move into
      // the presentation (a deck opened presenting is not drawn as an article first). They come back if it fails.
      document.documentElement.classList.add("deck-opening");
      const wasRestoring = restoring;
      loadReveal().then(function () {
        const before = restoring;
        restoring = wasRestoring;
        try { if (!deck) present(startId); } finally { restoring = before; }
      }, function () { document.documentElement.classList.remove("deck-opening"); });
      return;
    }
    overlay = document.createElement("div");
    overlay.className = "deck-present-overlay";
    overlay.setAttribute("role", "dialog");
    overlay.setAttribute("aria-modal", "true");
    overlay.setAttribute("aria-label", document.title + ": presentation (Escape leaves)");
    const reveal = document.createElement("div");
    reveal.className = "reveal";
    reveal.tabIndex = -1;
    overlay.appendChild(reveal);
    if (!receiver) {
      overlay.appendChild(toolbar());
      const hint = document.createElement("p");
      hint.className = "deck-rotate-hint";
      hint.textContent = "Turn the phone sideways: the slides are wide, and upright they show at about a third of their size.";
      overlay.appendChild(hint);
    }
    document.body.appendChild(overlay);
    document.documentElement.classList.add("deck-presenting");
    slides.classList.add("slides");
    reveal.appendChild(slides);
    document.documentElement.classList.remove("deck-opening");
    const plugins = typeof RevealNotes !== "undefined" && !receiver ? [RevealNotes] : [];
    deck = new Reveal(reveal, {
      embedded: true, width: 1280, height: 720, display: "flex", margin: 0.04, minScale: 0.1, maxScale: 3, center: false,
      hash: false, history: false, transition: "none", backgroundTransition: "none",
      controls: true, controlsTutorial: false, progress: true, slideNumber: "c/t", showSlideNumber: "all",
      overview: true, help: true, pause: false, touch: true, keyboard: true, scrollActivationWidth: null,
      postMessage: true, postMessageEvents: reports, plugins: plugins,
      keyboardCondition: function (e) { return !inControl(e.target); },
    });
    deck.initialize().then(function () {
      // reveal's own key list, with this page's meanings for Escape and S
      deck.removeKeyBinding(27);
      deck.addKeyBinding({ keyCode: 27, key: "Esc", description: "Close the overview, help or a card; else leave the presentation" }, onEscape);
      if (plugins.length) bindSpeakerKey();
      restoring = true;
      deck.slide(indexOf(startId || hashId()));
      restoring = false;
      deck.on("slidechanged", function (e) { shown(e.currentSlide); writeURL(presentURL(e.currentSlide.id)); });
      deck.on("overviewhidden", function () { shown(deck.getCurrentSlide()); });
      deck.on("overviewshown", function () { window.SiteCharts.load([slides]); });
      const first = deck.getCurrentSlide();
      if (!params.has("present") && !receiver) writeURL(presentURL(first.id));
      else if (!receiver) history.replaceState({ deck: true }, "", presentURL(first.id));
      shown(first);
      if (!receiver) reveal.focus(); // a preview takes no focus: the view hands its keys to the current one
    });
  }

  function leave(keepURL) {
    if (!deck) return;
    const current = deck.getCurrentSlide();
    closeCards();
    deck.destroy();
    deck = null;
    slides.classList.remove("slides");
    // Undo what the presentation set on the slides, so the article reads as before.
    sections().forEach(function (s) {
      s.removeAttribute("style");
      s.removeAttribute("hidden");
      s.removeAttribute("aria-hidden");
      s.classList.remove("present", "past", "future", "stack");
    });
    slides.removeAttribute("style");
    frame.appendChild(slides);
    overlay.remove();
    overlay = null;
    document.documentElement.classList.remove("deck-presenting");
    window.SiteCharts.release(slides);
    if (document.fullscreenElement && document.exitFullscreen) document.exitFullscreen().catch(function () {});
    resizeCharts();
    if (current) {
      if (!keepURL) writeURL(articleURL(current.id));
      current.scrollIntoView({ block: "start" });
    }
    button.focus({ preventScroll: true });
  }

  // Back / Forward: a present-mode entry shows its slide, an article entry leaves at its slide.
  window.addEventListener("popstate", function () {
    const presenting = new URLSearchParams(location.search).has("present");
    restoring = true;
    try {
      if (presenting) present(hashId());
      else if (deck) leave(true);
    } finally { restoring = false; }
  });

  button.addEventListener("click", function () { present(); });
  // A number or term clicked on a slide opens its card (its source, its definition) instead of leaving.
  document.addEventListener("click", function (e) {
    if (!deck) return;
    const a = e.target.closest && e.target.closest(".deck-present-overlay a.fig, .deck-present-overlay a.term");
    if (!a) return;
    e.preventDefault();
    a.focus();
  }, true);
  window.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && deck && cardOpen()) {
      e.preventDefault();
      e.stopImmediatePropagation();
      closeCards();
      deck.getRevealElement().focus();
      return;
    }
    // reveal's help overlay takes the focus (its close button): Escape there closes the overlay
    if (e.key === "Escape" && deck && deck.isOverlayOpen && deck.isOverlayOpen()) {
      e.preventDefault();
      e.stopImmediatePropagation();
      deck.toggleHelp(false); // reveal 5's public API closes its overlay this way (closeOverlay is internal)
      deck.getRevealElement().focus();
      return;
    }
    if (e.key === "Escape" && deck && inControl(e.target) && overlay.contains(e.target) && !e.target.closest(".deck-present-tools")) {
      e.preventDefault();
      e.stopPropagation();
      deck.getRevealElement().focus();
    }
  }, true);
  if (params.has("present") || receiver) present();
  window.SiteDeck = {
    present: present, leave: leave, speaker: openSpeakerView, fitForPrint: fitForPrint,
    current: function () { return deck ? deck.getCurrentSlide().id : null; },
    deck: function () { return deck; },
  };
})();
