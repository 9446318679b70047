package html

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/seed"
)

// remoteRef finds anything that would make a browser fetch a resource.
var remoteRef = regexp.MustCompile(`(?i)(src\s*=|href\s*=|url\s*\(|@import|<link|<iframe|<img|<object|fetch\(|XMLHttpRequest|import\()`)

// checkSelfContained fails when the page could fetch anything or
// mentions a remote address outside its text. The inlined uPlot build
// is checked apart: its only address is the project URL in its
// licence comment.
func checkSelfContained(t *testing.T, page string) {
	t.Helper()
	page = strings.Replace(page, uplotJS, "", 1)
	if m := remoteRef.FindString(page); m != "" {
		t.Errorf("page references an external resource: %q", m)
	}
	if n := strings.Count(uplotJS, "://"); n != 1 || !strings.HasPrefix(uplotJS, "/*! https://github.com/leeoniya/uPlot") {
		t.Errorf("the uPlot build names %d addresses, want only its licence comment's", n)
	}
	for _, bad := range []string{"fetch(", "XMLHttpRequest", "importScripts", "WebSocket"} {
		if strings.Contains(uplotJS, bad) {
			t.Errorf("the uPlot build uses %s", bad)
		}
	}
	// http(s) URLs may appear only as text (the target URL): never
	// inside a tag.
	for _, tag := range regexp.MustCompile(`<[^>]*>`).FindAllString(page, -1) {
		if strings.Contains(tag, "http://") || strings.Contains(tag, "https://") {
			t.Errorf("tag names a remote address: %.120s", tag)
		}
	}
	if n := strings.Count(strings.ToLower(page), "<script"); n != 0 && n != 4 {
		t.Errorf("%d script elements, want none or 4 (data, guard, uPlot, charts)", n)
	}
}

// chartDataRe finds the charts' JSON.
var chartDataRe = regexp.MustCompile(`(?s)<script type="application/json" id="vesload-charts">(.*?)</script>`)

// pageCharts decodes the charts a page carries and checks that each has
// a container and aligned columns.
func pageCharts(t *testing.T, page string) []chartData {
	t.Helper()
	m := chartDataRe.FindStringSubmatch(page)
	if m == nil {
		if strings.Contains(page, `class="chart"`) {
			t.Fatal("chart containers but no chart data")
		}
		return nil
	}
	var charts []chartData
	if err := json.Unmarshal([]byte(m[1]), &charts); err != nil {
		t.Fatalf("chart data: %v", err)
	}
	if n := strings.Count(page, `<div class="chart"`); n != len(charts) {
		t.Errorf("%d chart containers for %d charts", n, len(charts))
	}
	for _, c := range charts {
		if !strings.Contains(page, `<div class="chart" id="`+c.ID+`"`) {
			t.Errorf("chart %q has no container", c.ID)
		}
		if len(c.Data) != len(c.Series)+1 || len(c.Data[0]) == 0 {
			t.Errorf("chart %q: %d columns for %d series", c.Title, len(c.Data), len(c.Series))
		}
		for i, col := range c.Data {
			if len(col) != len(c.Data[0]) {
				t.Errorf("chart %q: column %d has %d values, x has %d", c.Title, i, len(col), len(c.Data[0]))
			}
		}
	}
	return charts
}

// titles lists the charts' titles.
func titles(cs []chartData) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Title
	}
	return out
}

// labels lists one chart's series labels.
func labels(c chartData) []string {
	out := make([]string, len(c.Series))
	for i, s := range c.Series {
		out[i] = s.Label
	}
	return out
}

func render1(t *testing.T, r *result.Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := Report(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestReportStructure(t *testing.T) {
	t.Parallel()
	page := render1(t, sampleResult(t))
	charts := pageCharts(t, page)
	wantCharts := []string{"Latency per second", "Target vs achieved rate", "Errors per second by class",
		"Latency percentile spectrum", "CPU over time", "Memory over time", "Pool use"}
	if got := titles(charts); !slices.Equal(got, wantCharts) {
		t.Errorf("charts %q, want %q", got, wantCharts)
	}
	checkSelfContained(t, page)
	wantSeries := [][]string{
		{"max", "p99", "p50"},
		{"target (scheduled)", "achieved (sent)", "ok"},
		{"http_503", "pool_exhausted"},
		{"latency", "service time"},
		{"target", "generator (vesload)"},
		{"target", "generator (vesload)"},
		{"in flight", "pool size"},
	}
	for i, c := range charts {
		if i < len(wantSeries) && !slices.Equal(labels(c), wantSeries[i]) {
			t.Errorf("chart %q: series %q, want %q", c.Title, labels(c), wantSeries[i])
		}
	}
	// The spectrum runs from p0 (x=1) to p99.99 (x=10000) on its own
	// axis; the timelines run over the 60 seconds.
	if spec := charts[3]; spec.Axis != axisSpectrum || spec.Data[0][0] != 1 || spec.Data[0][len(spec.Data[0])-1] != spectrumMaxX {
		t.Errorf("spectrum axis %q spans %v..%v", spec.Axis, spec.Data[0][0], spec.Data[0][len(spec.Data[0])-1])
	}
	if lat := charts[0]; lat.Axis != axisSeconds || len(lat.Data[0]) != 60 {
		t.Errorf("latency chart: axis %q with %d seconds, want 60", lat.Axis, len(lat.Data[0]))
	}
	if pool := charts[6]; pool.Data[2][0] != 16 {
		t.Errorf("pool size line at %v, want 16", pool.Data[2][0])
	}
	for _, secret := range []string{"s3cr3t", "hunter2", "tok3n"} {
		if strings.Contains(page, secret) {
			t.Errorf("page leaks the secret %q", secret)
		}
	}
	for _, want := range []string{
		`<!DOCTYPE html>`, `@media print`,
		`id="summary"`, `id="verdicts"`, `id="charts"`, `id="errors"`, `id="resources"`, `id="config"`,
		"Latency per second", "Target vs achieved rate", "Errors per second by class",
		"Latency percentile spectrum", "CPU over time",
		"sample1:xxxxx@collector.example", "admin:xxxxx@collector.example",
		`<span class="badge fail">FAIL (1 of 2)</span>`, `class="pass">PASS<`,
		"http_503", "pool_exhausted", "SVC2000",
		"Charts drawn by the inlined uPlot " + uplotRelease(),
		"35 requests could not get a connection",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The seed table carries the same cells as the Markdown rendering.
	for _, v := range seed.Values(sampleResult(t)) {
		if !strings.Contains(page, ">"+v+"<") {
			t.Errorf("seed cell %q missing", v)
		}
	}
	if again := render1(t, sampleResult(t)); again != page {
		t.Error("two renderings of the same result differ: output is not deterministic")
	}
}

func TestReportDegrades(t *testing.T) {
	t.Parallel()
	empty := &result.Result{Schema: result.Schema, Config: result.RunConfig{URL: "http://127.0.0.1:8080/eventListener/v7", Emulator: true}}
	noErrors := sampleResult(t)
	noErrors.Errors = map[string]int64{}
	for i := range noErrors.Timeline {
		noErrors.Timeline[i].ErrorsByClass, noErrors.Timeline[i].Errors = nil, 0
	}
	noErrors.Target = nil
	broken := sampleResult(t)
	broken.Histograms.Latency = "not a histogram"
	influxDown := sampleResult(t)
	influxDown.Influx = &result.InfluxWrites{URL: "http://vl:xxxxx@influx:8086/write?db=jmeter", Failed: 61,
		LastError: "influx write: dial tcp 10.0.0.9:8086: connect: connection refused"}
	written := sampleResult(t)
	written.Written = []result.OutputWrites{{Output: "--remote-write-url", URL: "http://prom:9090/api/v1/write", Batches: 58, Samples: 1200, Failed: 2, Dropped: 1,
		LastError: "server returned HTTP status 503"}}
	interrupted := sampleResult(t)
	interrupted.Interrupted = true
	interrupted.DurationS = 12.5
	tests := []struct {
		name   string
		r      *result.Result
		charts int
		want   []string
	}{
		{"empty", empty, 0, []string{"has no per-second timeline", "no per-second count of requests in flight", "No latency was recorded", "was sampled", "No errors.", "Verdict: PASSED (exit 0): no gate was set and no built-in rule was broken", "The built-in rules, where they apply: ok&gt;0", "built-in emulator"}},
		{"no errors, no target", noErrors, 6, []string{"No errors during the run.", "The target was not sampled."}},
		{"broken histogram", broken, 7, []string{"latency histogram: decode histogram"}},
		{"influx down", influxDown, 7, []string{"InfluxDB (--influx-url)", "http://vl:xxxxx@influx:8086/write?db=jmeter", ">61 / 0<", "connection refused"}},
		{"output written", written, 7, []string{"Output --remote-write-url", "http://prom:9090/api/v1/write", ">1200<", ">2 / 1<", "HTTP status 503"}},
		{"interrupted", interrupted, 7, []string{`class="banner"`, "interrupted after 12.5s of the 1m0s planned"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			page := render1(t, tc.r)
			if n := len(pageCharts(t, page)); n != tc.charts {
				t.Errorf("%d charts, want %d", n, tc.charts)
			}
			for _, w := range tc.want {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			checkSelfContained(t, page)
		})
	}
	if err := Report(new(bytes.Buffer), nil); err == nil {
		t.Error("nil result accepted")
	}
}

func TestChartAlignsSeries(t *testing.T) {
	t.Parallel()
	c := chart{title: "t", xLabel: "seconds", yLabel: "ms", series: []series{
		{name: "a", color: colBlue, xy: []point{{0, 1.5}, {2, 0.30000000000000004}}},
		{name: "b", color: colOrange, dashed: true, thin: true, xy: []point{{1, 7}, {2, math.NaN()}, {3, math.Inf(1)}}},
		{name: "none", color: colGrey, xy: []point{{math.NaN(), 1}}},
	}}
	f := c.figure("nothing")
	if f.Empty != "" || f.data == nil {
		t.Fatalf("figure not drawn: %q", f.Empty)
	}
	b, err := json.Marshal(f.data)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"","title":"t","axis":"seconds","xLabel":"seconds","yLabel":"ms",` +
		`"series":[{"label":"a","stroke":"#0072b2","width":2},{"label":"b","stroke":"#e69f00","width":1,"dash":[6,4]}],` +
		`"data":[[0,1,2],[1.5,null,0.3],[null,7,null]]}`
	if string(b) != want {
		t.Errorf("chart data\n%s\nwant\n%s", b, want)
	}
	if f := (chart{series: []series{{name: "x", xy: []point{{math.NaN(), 1}}}}}).figure("no data"); f.data != nil || f.Empty != "no data" {
		t.Errorf("a chart without placeable points drew: %+v", f)
	}
}

func TestChartDataCannotCloseScript(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	r.Timeline[3].ErrorsByClass = map[string]int64{"</script><script>alert(1)</script>": 1}
	page := render1(t, r)
	if strings.Contains(page, "<script>alert") {
		t.Error("an error class closed the data script")
	}
	charts := pageCharts(t, page)
	if got := labels(charts[2]); !slices.Contains(got, "</script><script>alert(1)</script>") {
		t.Errorf("error class lost in the chart data: %q", got)
	}
}

func TestSpectrum(t *testing.T) {
	t.Parallel()
	h := result.NewHistogram()
	for v := int64(1); v <= 100000; v++ {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	xy := spectrum(h)
	if len(xy) != spectrumPoints+1 || xy[0].X != 1 || xy[len(xy)-1].X != spectrumMaxX {
		t.Fatalf("spectrum spans %v..%v in %d points", xy[0].X, xy[len(xy)-1].X, len(xy))
	}
	for i := 1; i < len(xy); i++ {
		if xy[i].Y < xy[i-1].Y || xy[i].X <= xy[i-1].X {
			t.Fatalf("spectrum not monotone at %d: %v after %v", i, xy[i], xy[i-1])
		}
	}
	// Uniform 1..100000 µs: p0 = 1 µs, p50 at x=2 is 50 ms, p99.99 ≈ 100 ms.
	if xy[0].Y > 0.002 || xy[len(xy)-1].Y < 99.9 || xy[len(xy)-1].Y > 100.1 {
		t.Errorf("spectrum ends %v and %v ms, want about 0.001 and 100", xy[0].Y, xy[len(xy)-1].Y)
	}
	if spectrum(nil) != nil || spectrum(result.NewHistogram()) != nil {
		t.Error("an empty histogram has a spectrum")
	}
}

func TestLatencySeriesSkipsEmptySeconds(t *testing.T) {
	t.Parallel()
	tl := []result.Second{
		{T: 0, Sent: 10, P50Ms: 3, P99Ms: 9, MaxMs: 12},
		{T: 1}, // nothing due: no latency to draw
		{T: 2, Sent: 10, P50Ms: 4, P99Ms: 8, MaxMs: 10},
	}
	xy := latencyXY(tl, func(s result.Second) float64 { return s.P50Ms })
	if len(xy) != 2 || xy[0].X != 0 || xy[1].X != 2 || xy[1].Y != 4 {
		t.Errorf("latency series %v, want seconds 0 and 2 only", xy)
	}
	if rate := timelineXY(tl, func(s result.Second) float64 { return float64(s.Sent) }); len(rate) != 3 || rate[1].Y != 0 {
		t.Errorf("rate series %v: a second without requests is a real 0", rate)
	}
}
