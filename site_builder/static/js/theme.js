// The colour scheme, before the page is drawn: the reader's choice (the header's toggle, kept in localStorage)
// or else the system's (prefers-color-scheme), as <html data-theme="light|dark">. site.js runs the toggle.
(function () {
  "use strict";
  var root = document.documentElement;
  var media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function chosen() {
    try { var t = localStorage.getItem("theme"); return t === "dark" || t === "light" ? t : null; } catch (e) { return null; }
  }
  function apply() { root.setAttribute("data-theme", chosen() || (media && media.matches ? "dark" : "light")); }
  apply();
  if (media && media.addEventListener) media.addEventListener("change", apply);
  window.SiteTheme = { apply: apply, chosen: chosen };
})();
