// Site-wide behaviour: glossary terms show their short definition on hover, keyboard focus and tap.
// A first tap on a term opens the definition; a second tap (or Enter) follows the link; Escape closes.
(function () {
  "use strict";
  let tip = null;
  let owner = null;

  function ensureTip() {
    if (tip) return tip;
    tip = document.createElement("div");
    tip.className = "term-tip";
    tip.id = "term-tip";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    document.body.appendChild(tip);
    return tip;
  }

  function place(el) {
    const t = ensureTip();
    const r = el.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const width = Math.min(320, vw - 16);
    t.style.maxWidth = width + "px";
    t.hidden = false;
    const w = t.offsetWidth;
    let left = r.left + window.scrollX;
    left = Math.max(window.scrollX + 8, Math.min(left, window.scrollX + vw - w - 8));
    let top = r.bottom + window.scrollY + 6;
    if (r.bottom + t.offsetHeight + 12 > window.innerHeight && r.top > t.offsetHeight + 12) {
      top = r.top + window.scrollY - t.offsetHeight - 6;
    }
    t.style.left = left + "px";
    t.style.top = top + "px";
  }

  function open(el) {
    const t = ensureTip();
    t.textContent = el.dataset.short;
    owner = el;
    el.setAttribute("aria-describedby", "term-tip");
    place(el);
  }

  function close() {
    if (owner) owner.removeAttribute("aria-describedby");
    owner = null;
    if (tip) tip.hidden = true;
  }

  document.addEventListener("mouseover", function (e) {
    const el = e.target.closest && e.target.closest("a.term");
    if (el) open(el);
  });
  document.addEventListener("mouseout", function (e) {
    const el = e.target.closest && e.target.closest("a.term");
    if (el && el === owner && !el.contains(e.relatedTarget)) close();
  });
  document.addEventListener("focusin", function (e) {
    const el = e.target.closest && e.target.closest("a.term");
    if (el) open(el); else close();
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && owner) close();
  });
  // Touch: the first tap shows the definition, the second follows the link. Whether the definition
  // was already open is read at pointerdown, before the tap's focus opens it.
  let firstTap = false;
  document.addEventListener("pointerdown", function (e) {
    const el = e.target.closest && e.target.closest("a.term");
    firstTap = e.pointerType === "touch" && !!el && (owner !== el || !tip || tip.hidden);
  }, true);
  document.addEventListener("click", function (e) {
    const el = e.target.closest && e.target.closest("a.term");
    if (!el) { close(); return; }
    if (firstTap) { e.preventDefault(); firstTap = false; open(el); }
  });
  window.addEventListener("resize", function () { if (owner) place(owner); });
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
