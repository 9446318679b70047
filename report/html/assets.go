package html

import (
	_ "embed"
	"strings"
)

// The uPlot build the page inlines, checked in with its licence and
// version under assets/uplot/ (refreshed by `make uplot`), and the
// script that draws the charts with it. Inlined, they keep the page one
// file that opens offline.
var (
	//go:embed assets/uplot/uPlot.iife.min.js
	uplotJS string
	//go:embed assets/uplot/uPlot.min.css
	uplotCSS string
	//go:embed assets/uplot/VERSION
	uplotVersion string
	//go:embed assets/charts.js
	chartsJS string
)

// errorGuard shows any script error on the page itself, above the
// charts, instead of leaving blank charts: a report that failed to draw
// must say so.
const errorGuard = `window.addEventListener("error", function (e) {
  var n = document.getElementById("chart-error");
  if (n) { n.hidden = false; n.textContent = "The charts could not be drawn: " + e.message; }
  document.documentElement.setAttribute("data-chart-error", e.message || "error");
});`

// scripts are the page's inline scripts in order: the error guard, uPlot
// and the chart drawer.
func scripts() []string {
	return []string{errorGuard, uplotJS, chartsJS}
}

// uplotRelease is the version of the inlined uPlot build, named in the
// page's footer.
func uplotRelease() string { return strings.TrimSpace(uplotVersion) }
