// Validation loss against steps or cumulative wire bytes, mean over seeds with the seeds' range.
// The per-seed data is in <script id="data-loss_curves">; the statistics come from the port
// (assets/js/ports/loss_curves.js), which the tests hold equal to the Python model.
(function () {
  "use strict";
  const holder = document.getElementById("chart-loss_curves");
  const raw = document.getElementById("data-loss_curves");
  if (!holder || !raw || typeof Plotly === "undefined" || !window.Ports) return;
  const port = window.Ports.lossCurves;
  const data = JSON.parse(raw.textContent);
  data.series.forEach(function (s) {
    const b = port.band(s.seeds);
    s.mean = b.mean;
    s.low = b.low;
    s.high = b.high;
    s.wire_gb = port.wireGB(s.wire_bytes);
    s.seeds = s.seeds.length;
  });
  const palette = ["#1d3557", "#e63946", "#2a9d8f", "#8ab17d", "#e9c46a", "#6d597a", "#f4a261", "#b5651d",
    "#457b9d", "#9d0208", "#588157", "#7f5539"];
  const axes = {
    steps: { key: "steps", title: "Training step" },
    wire: { key: "wire_gb", title: "Cumulative bytes on the wire per worker (GB)" },
  };

  function traces(axis) {
    const out = [];
    data.series.forEach(function (s, i) {
      const x = s[axes[axis].key];
      const color = palette[i % palette.length];
      const vis = s.visible ? true : "legendonly";
      if (s.seeds > 1) {
        out.push({
          x: x.concat(x.slice().reverse()), y: s.high.concat(s.low.slice().reverse()),
          fill: "toself", fillcolor: color + "33", line: { width: 0 }, hoverinfo: "skip",
          showlegend: false, legendgroup: s.id, visible: vis, type: "scatter", mode: "lines",
        });
      }
      out.push({
        x: x, y: s.mean, name: s.name + (s.seeds > 1 ? " (" + s.seeds + " seeds)" : " (1 seed)"),
        legendgroup: s.id, visible: vis, type: "scatter", mode: "lines+markers",
        line: { color: color, width: 2 }, marker: { size: 4 },
        hovertemplate: s.name + "<br>%{x}<br>loss %{y:.3f}<extra></extra>",
      });
    });
    return out;
  }

  function layout(axis) {
    return {
      margin: { l: 60, r: 10, t: 10, b: 50 },
      xaxis: { title: { text: axes[axis].title }, zeroline: false },
      yaxis: { title: { text: "Validation loss (nats per token)" }, type: "log", range: [Math.log10(1.5), Math.log10(6)] },
      legend: { orientation: "h", y: -0.2 },
      hovermode: "closest",
      height: 520,
    };
  }

  holder.textContent = "";
  const controls = document.createElement("div");
  controls.className = "chart-controls";
  controls.innerHTML = '<span>x axis:</span>';
  const plot = document.createElement("div");
  holder.appendChild(controls);
  holder.appendChild(plot);
  const caption = document.createElement("figcaption");
  caption.textContent = "Mean over seeds; the shaded band spans the seeds' lowest to highest loss. " +
    "Click a legend entry to hide or show a configuration.";
  holder.appendChild(caption);
  let current = "steps";
  Object.keys(axes).forEach(function (axis) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.axis = axis;
    b.textContent = axis === "steps" ? "Steps" : "Wire bytes";
    b.setAttribute("aria-pressed", String(axis === current));
    b.addEventListener("click", function () {
      current = axis;
      controls.querySelectorAll("button").forEach(function (o) {
        o.setAttribute("aria-pressed", String(o.dataset.axis === current));
      });
      Plotly.react(plot, traces(current), layout(current), { displaylogo: false, responsive: true });
    });
    controls.appendChild(b);
  });
  Plotly.newPlot(plot, traces(current), layout(current), { displaylogo: false, responsive: true });
  holder.dataset.ready = "true";
})();
