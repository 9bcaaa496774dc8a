// The Plotly the site ships: plotly.js's own modules, registered here instead of through its lib/core.js so
// that only what our charts draw is in the bundle. Built by build.mjs (see there for how to run it).
//
// In: the scatter and bar traces; annotations, shapes, legend, hover (fx), colour scales (marker colours);
// selections and the mode bar (plotly.js's cartesian code requires them directly, so they are in the bundle
// anyway and are registered as plotly.js does, though the mode bar is never shown and has no icons: see
// no_icons.js); the en and en-US locales.
// Out: every other trace (pie included), colour bars (no chart sets showscale), calendars, error bars, images,
// grid, range sliders and selectors, sliders, update menus, 3-D annotations, other locales, image export
// (toImage, downloadImage), validate, the templates' API, Plotly.Snapshot, Plotly.PlotSchema, Plotly.Icons, and
// the Promise polyfill.
//
// What the site calls: Plotly.newPlot, Plotly.react, Plotly.relayout, Plotly.Plots.resize, and gd.on(...).
'use strict';

require('plotly.js/build/plotcss');

var Registry = require('plotly.js/src/registry');
var api = require('plotly.js/src/plot_api/plot_api');
var Plots = require('plotly.js/src/plots/plots');

// Every method of plot_api.js is registered (plotly.js calls several through the registry: _doPlot,
// _guiRelayout, redraw, ...); the public ones are exported.
Object.keys(api).forEach(function (name) {
    Registry.register({ moduleType: 'apiMethod', name: name, fn: api[name] });
    if (name.charAt(0) !== '_') exports[name] = api[name];
});

// The order is plotly.js's own: legend after shapes, fx after legend (their defaults depend on each other).
Registry.register([
    require('plotly.js/src/traces/scatter'),
    require('plotly.js/src/traces/bar'),
    require('plotly.js/src/components/annotations'),
    require('plotly.js/src/components/selections'),
    require('plotly.js/src/components/shapes'),
    require('plotly.js/src/components/colorscale'),
    require('plotly.js/src/components/legend'),
    require('plotly.js/src/components/fx'),
    require('plotly.js/src/components/modebar'),
    require('plotly.js/src/locale-en'),
    require('plotly.js/src/locale-en-us')
]);

exports.version = require('plotly.js/src/version').version;
exports.register = Registry.register;
exports.Plots = { resize: Plots.resize };
