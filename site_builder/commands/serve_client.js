// Live reload for `make serve` (injected by the development server only, never part of the built site).
// Polls the server's build state; reloads when a new build landed, and shows a failed build's error.
(function () {
  "use strict";
  let seen = null;
  let banner = null;

  function show(error) {
    if (!error) {
      if (banner) { banner.remove(); banner = null; }
      return;
    }
    if (!banner) {
      banner = document.createElement("div");
      banner.id = "build-error";
      banner.setAttribute("role", "alert");
      banner.style.cssText = "position:fixed;left:0;right:0;top:0;z-index:99999;padding:.8em 1em;" +
        "background:#7a0010;color:#fff;font:14px/1.4 monospace;white-space:pre-wrap";
      document.body.appendChild(banner);
    }
    banner.textContent = "The last rebuild failed; still serving the last good site.\n" + error;
  }

  function poll() {
    fetch("/__reload", { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (state) {
        if (seen === null) seen = state.id;
        else if (state.id !== seen) { location.reload(); return; }
        show(state.error);
      })
      .catch(function () { /* server restarting: try again */ })
      .finally(function () { setTimeout(poll, 400); });
  }
  poll();
})();
