// Draws the report's charts with uPlot from the JSON in #vesload-charts.
// Every chart over seconds shares one cursor; drag to zoom into a span,
// double-click to zoom out, click a legend entry to hide its line.
(function () {
  "use strict";
  var root = document.documentElement;
  var charts = JSON.parse(document.getElementById("vesload-charts").textContent);
  var spectrumTicks = [1, 2, 10, 100, 1000, 10000];
  var spectrumNames = ["p0", "p50", "p90", "p99", "p99.9", "p99.99"];

  // decimals is how many decimals a tick step needs: 0.25 needs 2, 5 none.
  function decimals(step) {
    var s = String(+Math.abs(step).toPrecision(6));
    var dot = s.indexOf(".");
    return s.indexOf("e") >= 0 ? 6 : dot < 0 ? 0 : Math.min(6, s.length - dot - 1);
  }

  // tick formats a tick at the precision of the step, with thousands
  // separated: never 1.2000000000000002.
  function tick(v, step) {
    var d = decimals(step);
    return v.toLocaleString("en-US", {minimumFractionDigits: d, maximumFractionDigits: d});
  }

  // value formats a hovered value to at most 3 decimals.
  function value(v) {
    if (v == null) return "–";
    return (+v.toFixed(3)).toLocaleString("en-US", {maximumFractionDigits: 3});
  }

  function percentile(x) {
    return "p" + (+(100 * (1 - 1 / x)).toFixed(3));
  }

  // ticks formats an axis and records its labels on the chart's element,
  // so that what the axis shows can be checked.
  function ticks(el, name) {
    return function (u, splits, axis, space, step) {
      var labels = splits.map(function (v) { return v == null ? "" : tick(v, step); });
      el.setAttribute("data-" + name + "-ticks", labels.join(" "));
      return labels;
    };
  }

  function options(c, el) {
    var spectrum = c.axis === "spectrum";
    var x = {label: c.xLabel, values: ticks(el, "x"), grid: {stroke: "#e3e6ea"}};
    if (spectrum) {
      x.splits = function () { return spectrumTicks; };
      x.values = function () {
        el.setAttribute("data-x-ticks", spectrumNames.join(" "));
        return spectrumNames;
      };
    }
    var series = [{label: spectrum ? "percentile" : c.xLabel, value: function (u, v) {
      return v == null ? "–" : spectrum ? percentile(v) : value(v);
    }}];
    c.series.forEach(function (s) {
      series.push({label: s.label, stroke: s.stroke, width: s.width, dash: s.dash,
        spanGaps: false, points: {show: false}, value: function (u, v) { return value(v); }});
    });
    return {
      width: Math.max(320, el.clientWidth), height: 260,
      scales: {
        x: spectrum ? {time: false, distr: 3, log: 10, range: [1, 10000]} : {time: false},
        y: {range: function (u, lo, hi) { return [Math.min(0, lo), hi > 0 ? hi * 1.05 : 1]; }}
      },
      axes: [x, {label: c.yLabel, values: ticks(el, "y"), size: 64, grid: {stroke: "#e3e6ea"}}],
      series: series,
      cursor: spectrum ? {drag: {x: true, y: false}} :
        {drag: {x: true, y: false}, sync: {key: "vesload-seconds", setSeries: true}},
      legend: {live: true}
    };
  }

  var plots = [];
  charts.forEach(function (c) {
    var el = document.getElementById(c.id);
    plots.push({el: el, u: new uPlot(options(c, el), c.data, el)});
    el.setAttribute("data-drawn", "true");
  });
  window.addEventListener("resize", function () {
    plots.forEach(function (p) { p.u.setSize({width: Math.max(320, p.el.clientWidth), height: 260}); });
  });
  root.setAttribute("data-charts-drawn", String(plots.length));
})();
