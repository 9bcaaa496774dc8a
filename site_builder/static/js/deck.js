// A deck reads as an article; "Present" shows one 16:9 slide at a time with reveal.js (vendored,
// assets/vendor/reveal/). The slides themselves are moved into the presentation and back, so charts keep
// their state. The URL fragment follows the current slide in both views; Escape leaves the presentation.
(function () {
  "use strict";
  const frame = document.querySelector(".deck-frame");
  const slides = document.querySelector(".deck-slides");
  const button = document.querySelector("[data-present]");
  if (!frame || !slides || !button || typeof Reveal === "undefined") return;
  let deck = null;
  let overlay = null;

  function sections() { return Array.from(slides.querySelectorAll(":scope > section.slide")); }

  function indexOf(id) {
    const i = sections().findIndex(function (s) { return s.id === id; });
    return i < 0 ? 0 : i;
  }

  function setFragment(id) {
    if (id && location.hash !== "#" + id) history.replaceState(null, "", "#" + id);
  }

  function resizeCharts() { window.dispatchEvent(new Event("resize")); }

  // A slide taller than its 16:9 page (a long table) is scaled down to fit, never cut.
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
    document.documentElement.classList.add("deck-print-measure");
    sections().forEach(function (s) { fit(s, 720); });
    document.documentElement.classList.remove("deck-print-measure");
  }
  window.addEventListener("beforeprint", fitForPrint);
  window.addEventListener("afterprint", unfit);

  function present(startId) {
    if (deck) return;
    overlay = document.createElement("div");
    overlay.className = "deck-present-overlay";
    overlay.setAttribute("role", "dialog");
    overlay.setAttribute("aria-modal", "true");
    overlay.setAttribute("aria-label", document.title + ": presentation (Escape leaves)");
    const reveal = document.createElement("div");
    reveal.className = "reveal";
    overlay.appendChild(reveal);
    document.body.appendChild(overlay);
    document.documentElement.classList.add("deck-presenting");
    slides.classList.add("slides");
    reveal.appendChild(slides);
    deck = new Reveal(reveal, {
      embedded: true, width: 1280, height: 720, margin: 0.04, center: false, hash: false, history: false,
      transition: "none", backgroundTransition: "none", controls: true, progress: true, slideNumber: "c/t",
      overview: false, help: false, pause: false, scrollActivationWidth: null, keyboardCondition: null,
      keyboard: { 27: leave, 79: null, 66: null, 70: null, 190: null },
    });
    deck.initialize().then(function () {
      deck.slide(indexOf(startId || location.hash.slice(1)));
      deck.on("slidechanged", function (e) { fit(e.currentSlide, 720); setFragment(e.currentSlide.id); resizeCharts(); });
      fit(deck.getCurrentSlide(), 720);
      setFragment(deck.getCurrentSlide().id);
      resizeCharts();
      reveal.focus();
    });
  }

  function leave() {
    if (!deck) return;
    const current = deck.getCurrentSlide();
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
    unfit();
    frame.appendChild(slides);
    overlay.remove();
    overlay = null;
    document.documentElement.classList.remove("deck-presenting");
    resizeCharts();
    if (current) {
      setFragment(current.id);
      current.scrollIntoView({ block: "start" });
    }
    button.focus();
  }

  button.addEventListener("click", function () { present(); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && deck) { e.preventDefault(); leave(); }
  });
  if (new URLSearchParams(location.search).has("present")) present();
  window.SiteDeck = {
    present: present, leave: leave, fitForPrint: fitForPrint,
    current: function () { return deck ? deck.getCurrentSlide().id : null; },
  };
})();
