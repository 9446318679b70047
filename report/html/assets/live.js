// Follows a run live: every message of the dashboard's event stream is
// the whole page as it stands (content, chart data, status), so a
// browser that missed updates, or connected late, is whole again with
// the next one. Once the run has ended the stream stops and the page
// stays as the final report.
(function () {
  "use strict";
  var root = document.documentElement;
  var status = document.getElementById("live-status");
  var save = document.getElementById("live-save");
  var updates = 0;
  if (root.getAttribute("data-live-state") !== "running" || !window.EventSource) return;
  var es = new EventSource("events");
  es.onmessage = function (e) {
    var m = JSON.parse(e.data);
    document.querySelector("main").innerHTML = m.main;
    document.getElementById("vesload-charts").textContent = JSON.stringify(m.charts);
    if (window.vesloadCharts) window.vesloadCharts.draw();
    status.textContent = m.status;
    status.className = "live " + m.state;
    root.setAttribute("data-live-state", m.state);
    root.setAttribute("data-live-updates", String(++updates));
    if (m.title) document.title = m.title;
    if (m.state !== "running") {
      save.hidden = false;
      es.close();
    }
  };
  es.onerror = function () {
    if (es.readyState === EventSource.CLOSED) {
      status.textContent = "No longer connected to the run: the figures are those of the last update.";
      status.className = "live gone";
    } else {
      status.textContent = "Reconnecting to the run… (the figures are those of the last update)";
    }
  };
})();
