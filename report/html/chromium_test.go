package html

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	stdhtml "html"
	"image"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/chromiumtest"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
)

// chromiumPath is the browser the tests render pages in.
const chromiumPath = chromiumtest.Path

// needChromium skips the test when Chromium is not installed, unless CI
// requires it (internal/chromiumtest).
func needChromium(t *testing.T) {
	t.Helper()
	chromiumtest.Need(t, "render the HTML report in a real browser")
}

// chromium runs headless Chromium on page with extra arguments, isolated
// from any user profile, within a time limit. Every request it makes to
// the network goes through proxy, which answers none. It returns what
// Chromium printed on stdout (the DOM with --dump-dom) and the page's
// console lines from its log.
func chromium(t *testing.T, page string, proxy *recordingProxy, args ...string) (stdout []byte, console []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(),
		"--proxy-server=http://" + proxy.addr, "--proxy-bypass-list=<-loopback>",
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000",
	}
	cmd := exec.CommandContext(ctx, chromiumPath, append(append(base, args...), "file://"+page)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	for line := range strings.Lines(errb.String()) {
		if strings.Contains(line, ":CONSOLE") {
			console = append(console, strings.TrimSpace(line))
		}
	}
	return out.Bytes(), console
}

// recordingProxy is the only way out of the browser under test: it
// records every request and answers each with 502, so nothing from the
// network can reach the page.
type recordingProxy struct {
	addr  string
	mu    sync.Mutex
	hosts []string
}

func startProxy(t *testing.T) *recordingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &recordingProxy{addr: ln.Addr().String()}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.hosts = append(p.hosts, r.Host)
		p.mu.Unlock()
		http.Error(w, "no network in this test", http.StatusBadGateway)
	}), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return p
}

// pageRequests are the hosts the page asked the network for: every
// proxied request except those of Chromium's own background services,
// which it makes whatever page it shows.
func (p *recordingProxy) pageRequests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, h := range p.hosts {
		name := strings.ToLower(h)
		if host, _, err := net.SplitHostPort(name); err == nil {
			name = host
		}
		if strings.HasSuffix(name, ".google.com") || strings.HasSuffix(name, ".googleapis.com") && name != "fonts.googleapis.com" {
			continue
		}
		out = append(out, h)
	}
	return out
}

// resourceProbe, appended to a copy of a page, records on the root
// element every resource the page loaded (performance resource timing),
// once the page has loaded.
const resourceProbe = `<script>window.addEventListener("load", function () { setTimeout(function () {
document.documentElement.setAttribute("data-resources", JSON.stringify(performance.getEntriesByType("resource").map(function (e) { return e.name; })));
}, 0); });</script>`

// browse loads page in headless Chromium with the resource probe and
// returns the DOM after its scripts ran, the console lines, the
// resources it loaded and the hosts it asked the network for.
func browse(t *testing.T, dir, name string, page []byte) (dom string, console, resources, hosts []string) {
	t.Helper()
	probed := bytes.Replace(page, []byte("</body>"), []byte(resourceProbe+"</body>"), 1)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, probed, 0o644); err != nil {
		t.Fatal(err)
	}
	proxy := startProxy(t)
	out, console := chromium(t, path, proxy, "--dump-dom")
	dom = string(out)
	m := regexp.MustCompile(`data-resources="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the resource probe did not run: %.1000s", dom)
	}
	if err := json.Unmarshal([]byte(stdhtml.UnescapeString(m[1])), &resources); err != nil {
		t.Fatalf("resource probe: %v", err)
	}
	return dom, console, resources, proxy.pageRequests()
}

// tickLabel is a rounded axis label: thousands separated, at most four
// decimals, or a percentile name on the spectrum's axis.
var tickLabel = regexp.MustCompile(`^(-?\d{1,3}(,\d{3})*(\.\d{1,4})?|p[0-9.]+)$`)

func TestChromiumRendersPages(t *testing.T) {
	needChromium(t)
	a, b := abRuns(t)
	cmp, err := compare.Compare(a, b, compare.Options{NameA: "dmaap", NameB: "cambria"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pages := []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"report.html", func(w *bytes.Buffer) error { return Report(w, withDelivery(hvRun(t))) }}, // every chart and section
		{"comparison.html", func(w *bytes.Buffer) error { return Comparison(w, cmp, a, b) }},
		{"trend.html", func(w *bytes.Buffer) error { return Trend(w, historyAnalysis(t)) }},
		{"capacity.html", func(w *bytes.Buffer) error { return Capacity(w, reporttest.Capacity()) }},
		{"capacity_hv.html", func(w *bytes.Buffer) error { // a travel time series with a gap
			d := reporttest.Capacity()
			d.Config.Protocol, d.Config.Producers, d.Config.SizeBytes = result.ProtocolHV, 2, 8192
			for i := range d.Capacity.Steps[1:] {
				e2e := 2 + 100*float64(i)
				d.Capacity.Steps[i+1].E2EP99Ms = &e2e
			}
			return Capacity(w, d)
		}},
		{"capacity_comparison.html", func(w *bytes.Buffer) error {
			c, a, b := capacityAB(t, "dmaap", "cambria", []string{"b1.json", "b2.json"})
			return CapacityComparison(w, c, a, b)
		}},
		{"capacity_trend.html", func(w *bytes.Buffer) error { return CapacityTrend(w, capacityHistory(t)) }},
		{"capacity_trend_open.html", func(w *bytes.Buffer) error { return CapacityTrend(w, openHistory(t)) }}, // a band with a gap
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := p.write(&buf); err != nil {
				t.Fatal(err)
			}
			charts := pageCharts(t, buf.String())
			dom, console, resources, hosts := browse(t, dir, p.name, buf.Bytes())
			if len(console) > 0 {
				t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
			}
			if len(resources) > 0 || len(hosts) > 0 {
				t.Errorf("the page loaded %q and asked the network for %q", resources, hosts)
			}
			root := regexp.MustCompile(`<html[^>]*>`).FindString(dom)
			if strings.Contains(root, "data-chart-error") || !strings.Contains(dom, `id="chart-error" hidden`) {
				t.Errorf("a script error was shown on the page: %s", root)
			}
			if !strings.Contains(root, fmt.Sprintf(`data-charts-drawn="%d"`, len(charts))) {
				t.Errorf("the page did not report its %d charts drawn", len(charts))
			}
			checkChartsDrawn(t, dom, charts)
			if !strings.Contains(dom, "</footer>") {
				t.Error("the page was not read to its end")
			}

			shot := filepath.Join(dir, strings.TrimSuffix(p.name, ".html")+".png")
			chromium(t, filepath.Join(dir, p.name), startProxy(t), "--screenshot="+shot, "--window-size=1280,4000")
			checkScreenshot(t, shot)
		})
	}
}

// checkChartsDrawn fails unless every chart's container holds a canvas
// uPlot drew, with rounded labels on both axes (a history's builds on
// its x axis).
func checkChartsDrawn(t *testing.T, dom string, charts []chartData) {
	t.Helper()
	for i, c := range charts {
		start := strings.Index(dom, `<div class="chart" id="`+c.ID+`"`)
		if start < 0 {
			t.Errorf("chart %q: no container in the DOM", c.Title)
			continue
		}
		end := len(dom)
		if i+1 < len(charts) {
			if next := strings.Index(dom, `<div class="chart" id="`+charts[i+1].ID+`"`); next > start {
				end = next
			}
		}
		el := dom[start:end]
		open := el[:strings.Index(el, ">")]
		if !strings.Contains(open, `data-drawn="true"`) || !strings.Contains(el, "<canvas") {
			t.Errorf("chart %q was not drawn: %.300s", c.Title, el)
		}
		for _, axis := range []string{"x", "y"} {
			m := regexp.MustCompile(`data-` + axis + `-ticks="([^"]*)"`).FindStringSubmatch(open)
			if m == nil || strings.TrimSpace(m[1]) == "" {
				t.Errorf("chart %q: no %s tick labels", c.Title, axis)
				continue
			}
			for _, l := range strings.Fields(stdhtml.UnescapeString(m[1])) {
				if c.Axis == axisRuns && axis == "x" { // a history's axis names its builds
					if !slices.Contains(c.XNames, l) {
						t.Errorf("chart %q: x tick label %q names no build of %q", c.Title, l, c.XNames)
					}
					continue
				}
				if !tickLabel.MatchString(l) {
					t.Errorf("chart %q: %s tick label %q is not rounded", c.Title, axis, l)
				}
			}
		}
	}
}

// TestChromiumChecksCanFail shows that the browser checks catch a page
// that loads from the network and throws.
func TestChromiumChecksCanFail(t *testing.T) {
	needChromium(t)
	page := []byte(`<!DOCTYPE html><html><body><img src="http://vesload.invalid/x.png">` +
		`<script>throw new Error("boom")</script></body></html>`)
	_, console, resources, hosts := browse(t, t.TempDir(), "bad.html", page)
	if len(resources) == 0 || len(hosts) == 0 {
		t.Errorf("a remote image went unnoticed: resources %q, hosts %q", resources, hosts)
	}
	if !slices.ContainsFunc(console, func(l string) bool { return strings.Contains(l, "Uncaught Error: boom") }) {
		t.Errorf("a script error went unnoticed: console %q", console)
	}
}

// checkScreenshot fails unless shot is a 1280-pixel-wide PNG with
// enough distinct colours to hold text and charts rather than a blank
// or error page.
func checkScreenshot(t *testing.T, shot string) {
	t.Helper()
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() < 1000 {
		t.Errorf("screenshot is %v, want 1280 wide and tall", b)
	}
	if n := colours(img, 4); n < 50 {
		t.Errorf("screenshot has %d colours: the page looks blank", n)
	}
}

// colours counts the distinct colours of every step-th pixel.
func colours(img image.Image, step int) int {
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	return len(seen)
}
