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
