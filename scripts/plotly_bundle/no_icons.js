// Stands in for plotly.js's src/fonts/ploticon.js, the SVG drawings of the mode bar's buttons (a twelfth of the
// bundle's compressed size). The site never shows the mode bar: charts.js passes displayModeBar: false on every
// Plotly.newPlot and Plotly.react, so no icon is ever drawn. build.mjs resolves plotly.js's requires of it here.
'use strict';

module.exports = {};
