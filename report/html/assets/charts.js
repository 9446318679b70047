// Draws the report's charts with uPlot from the JSON in #vesload-charts.
// Every chart over seconds shares one cursor; drag to zoom into a span,
// double-click to zoom out, click a legend entry to hide its line.
(function () {
  "use strict";
  var root = document.documentElement;
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

  // last is the last value a series has: what its legend shows while the
  // cursor is off the chart, instead of a dash.
  function last(col) {
    for (var i = col.length - 1; i >= 0; i--) {
      if (col[i] != null) return col[i];
    }
    return null;
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

  // runName names the run at x on a history's axis.
  function runName(c, v) {
    var i = Math.round(v);
    return i >= 0 && i < c.xNames.length ? c.xNames[i] : "";
  }

  // marksPlugin draws a history's change points: a dashed line between
  // two runs with its label, staggered so that close labels stay apart.
  function marksPlugin(marks) {
    return {hooks: {draw: [function (u) {
      var ctx = u.ctx, r = window.devicePixelRatio || 1;
      ctx.save();
      marks.forEach(function (m, i) {
        var x = u.valToPos(m.x, "x", true);
        ctx.strokeStyle = m.color;
        ctx.fillStyle = m.color;
        ctx.lineWidth = 1.5 * r;
        ctx.setLineDash([5 * r, 4 * r]);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.font = "600 " + (12 * r) + "px system-ui, sans-serif";
        var w = ctx.measureText(m.label).width;
        var tx = x + 4 * r + w > u.bbox.left + u.bbox.width ? x - 4 * r - w : x + 4 * r;
        ctx.fillText(m.label, tx, u.bbox.top + (14 + 15 * (i % 3)) * r);
      });
      ctx.restore();
    }]}};
  }

  function options(c, el) {
    var spectrum = c.axis === "spectrum", runs = c.axis === "runs", rate = c.axis === "rate";
    var x = {label: c.xLabel, values: ticks(el, "x"), grid: {stroke: "#e3e6ea"}};
    if (spectrum) {
      x.splits = function () { return spectrumTicks; };
      x.values = function () {
        el.setAttribute("data-x-ticks", spectrumNames.join(" "));
        return spectrumNames;
      };
    }
    if (runs) {
      x.splits = function () { return c.xTicks; };
      x.values = function (u, splits) {
        var labels = splits.map(function (v) { return runName(c, v); });
        el.setAttribute("data-x-ticks", labels.join(" "));
        return labels;
      };
    }
    var series = [{label: spectrum ? "percentile" : c.xLabel, value: function (u, v, sidx, idx) {
      if (idx == null) v = last(u.data[0]);
      return v == null ? "–" : spectrum ? percentile(v) : runs ? runName(c, v) : value(v);
    }}];
    c.series.forEach(function (s) {
      var look = {label: s.label, stroke: s.stroke, width: s.width, dash: s.dash,
        spanGaps: !!s.span, points: {show: false}, value: function (u, v, sidx, idx) {
          return value(idx == null ? last(u.data[sidx]) : v);
        }};
      if (s.dots) {
        look.points = {show: true, size: 7, width: 1, fill: s.stroke, stroke: s.stroke};
      }
      if (s.points) {
        look.paths = function () { return null; };
        look.points = {show: true, size: 8, width: 1, fill: s.stroke, stroke: s.stroke};
      }
      series.push(look);
    });
    return {
      width: Math.max(320, el.clientWidth), height: 260,
      plugins: c.marks ? [marksPlugin(c.marks)] : [],
      bands: (c.bands || []).map(function (b) { return {series: b.series, fill: b.fill}; }),
      scales: {
        x: spectrum ? {time: false, distr: 3, log: 10, range: [1, 10000]} :
          runs ? {time: false, range: [-0.6, c.xNames.length - 0.4]} : {time: false},
        y: {range: function (u, lo, hi) { return [Math.min(0, lo), hi > 0 ? hi * 1.05 : 1]; }}
      },
      axes: [x, {label: c.yLabel, values: ticks(el, "y"), size: 64, grid: {stroke: "#e3e6ea"}}],
      series: series,
      cursor: spectrum || runs || rate ? {drag: {x: true, y: false}} :
        {drag: {x: true, y: false}, sync: {key: "vesload-seconds", setSeries: true}},
      legend: {live: true}
    };
  }

  var plots = [];

  // draw (re)draws every chart from the page's chart data; a live page
  // calls it again after each update.
  function draw() {
    plots.forEach(function (p) { p.u.destroy(); });
    plots = [];
    var charts = JSON.parse(document.getElementById("vesload-charts").textContent);
    charts.forEach(function (c) {
      var el = document.getElementById(c.id);
      if (!el) return;
      plots.push({el: el, u: new uPlot(options(c, el), c.data, el)});
      el.setAttribute("data-drawn", "true");
      el.setAttribute("data-points", String(c.data.length ? c.data[0].length : 0));
      el.setAttribute("data-axis", c.axis);
    });
    root.setAttribute("data-charts-drawn", String(plots.length));
  }

  window.addEventListener("resize", function () {
    plots.forEach(function (p) { p.u.setSize({width: Math.max(320, p.el.clientWidth), height: 260}); });
  });
  window.vesloadCharts = {draw: draw};
  draw();
})();
