// Port of the captured-energy layout (site_builder/explorers/captured_energy.py: table), printed with the number
// formats of site_builder/fmt.py (fixed, ratio_x; ports/fmt.js). Pure functions, no DOM; checked against
// data/explorers/captured_energy.json in Chromium (raw values to 1e-12 relative, printed values character
// for character).
(function (root) {
  "use strict";

  // The number formats of site_builder/fmt.py, ported once (ports/fmt.js, loaded first).
  const { fixed, ratioX } = root.Ports.fmt;

  // One run and tensor, {group: {selector: share}}, laid out per group and selector: the share, its text as
  // results.md prints it, and the share over the keep fraction; a selector the run lacks is "n/a".
  function table(values, keep, selectors) {
    const out = {};
    Object.keys(values).forEach(function (g) {
      const row = {};
      selectors.forEach(function (s) {
        const v = values[g][s];
        row[s] = v === undefined || v === null
          ? { share: null, text: "n/a", vs_keep: null, vs_keep_text: "n/a" }
          : { share: v, text: fixed(v, 3), vs_keep: v / keep, vs_keep_text: ratioX(v / keep, 1) };
      });
      out[g] = row;
    });
    return out;
  }

  root.Ports = root.Ports || {};
  root.Ports.capturedEnergy = { fixed: fixed, ratioX: ratioX, table: table };
})(typeof window !== "undefined" ? window : globalThis);
