package html

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	goldenfile "github.com/vesload/vesload/internal/golden"
	"github.com/vesload/vesload/report/capcmp"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/trend"
)

// scaledCapacity is reporttest's search against a collector holding
// about 760/s with every rate scaled by f, started n hours later and
// labelled build.
func scaledCapacity(f float64, build string, n int) *result.CapacityDocument {
	d := reporttest.Capacity()
	c := &d.Capacity
	c.MaxRPS, c.FailRPS = c.MaxRPS*f, c.FailRPS*f
	for i := range c.Steps {
		c.Steps[i].OfferedRPS *= f
		c.Steps[i].AchievedRPS *= f
	}
	d.Started = d.Started.Add(time.Duration(n) * time.Hour)
	d.Labels = map[string]string{"build": build}
	return d
}

// capacityAB is dmaap's one search (750/s) against cambria's two (600/s
// and 570/s), gated at capacity>-10%.
func capacityAB(t *testing.T, nameA, nameB string, filesB []string) (*capcmp.Comparison, []*result.CapacityDocument, []*result.CapacityDocument) {
	t.Helper()
	a := []*result.CapacityDocument{scaledCapacity(1, "dmaap", 0)}
	b := []*result.CapacityDocument{scaledCapacity(0.8, "cambria", 1), scaledCapacity(0.76, "cambria", 2)}
	gates, err := capcmp.ParseGates([]string{"capacity>-10%", "capacity>-30%"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := capcmp.Compare(nameA, nameB, []string{"a1.json"}, filesB, a, b, gates, compare.UndecidedFail)
	if err != nil {
		t.Fatal(err)
	}
	return c, a, b
}

func renderCapacityComparison(t *testing.T, c *capcmp.Comparison, a, b []*result.CapacityDocument) string {
	t.Helper()
	var buf bytes.Buffer
	if err := CapacityComparison(&buf, c, a, b); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// goldenPage compares a page with its golden file in testdata (go test
// -update writes it): the page as written but for the styles and the
// inlined scripts, which are vesload's own and the same on every page,
// with the charts' data indented so that a change to one value shows as
// one line.
func goldenPage(t *testing.T, name, page string) {
	t.Helper()
	page = strings.Replace(page, styles+uplotCSS, "/* styles */", 1)
	for _, s := range scripts() {
		page = strings.Replace(page, "<script>"+s+"</script>", "<script>/* inlined */</script>", 1)
	}
	if m := chartDataRe.FindStringSubmatchIndex(page); m != nil {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(page[m[2]:m[3]]), "", " "); err != nil {
			t.Fatal(err)
		}
		page = page[:m[2]] + "\n" + b.String() + "\n" + page[m[3]:]
	}
	goldenfile.Check(t, "testdata/"+name, []byte(page))
}

// TestCapacityComparisonPage: the verdict and both sides' intervals, the
// gates, p99 and error rate of every search overlaid over the offered
// rate with each side's highest pass marked, the searches; its golden
// file holds the rest.
func TestCapacityComparisonPage(t *testing.T) {
	t.Parallel()
	c, a, b := capacityAB(t, "dmaap", "cambria", []string{"b1.json", "b2.json"})
	page := renderCapacityComparison(t, c, a, b)
	charts := pageCharts(t, page)
	if got, want := titles(charts), []string{"p99 against the offered rate", "Error rate against the offered rate"}; !slices.Equal(got, want) {
		t.Fatalf("charts %q, want %q", got, want)
	}
	for _, ch := range charts {
		if got, want := labels(ch), []string{"dmaap", "cambria b1.json", "cambria b2.json"}; !slices.Equal(got, want) {
			t.Errorf("chart %q: series %q, want %q", ch.Title, got, want)
		}
		if ch.Axis != axisRate || len(ch.Marks) != 2 || ch.Marks[0].X != 750 || ch.Marks[0].Label != "dmaap highest pass 750/s" ||
			ch.Marks[1].X != 585 || ch.Marks[1].Label != "cambria highest pass 585/s (mean of 2)" {
			t.Errorf("chart %q: axis %s, marks %+v", ch.Title, ch.Axis, ch.Marks)
		}
		if ch.Series[0].Dash != nil || ch.Series[1].Dash == nil || ch.Series[0].Stroke == ch.Series[1].Stroke {
			t.Errorf("chart %q: the sides are not told apart: %+v", ch.Title, ch.Series)
		}
	}
	// dmaap's p99 at 750/s is its last run's (the confirmation's).
	lat := charts[0]
	i := slices.Index(lat.Data[0], 750)
	if i < 0 || float64(lat.Data[1][i]) != 66.8 {
		t.Errorf("dmaap's p99 at 750/s: x %v, p99 %v, want 66.8", lat.Data[0], lat.Data[1])
	}
	checkSelfContained(t, page)
	for _, want := range []string{
		"<h1>Capacity: dmaap vs cambria</h1>", `<span class="badge fail">LESS</span>`,
		"<p>dmaap holds 750/s (±6.7 %), cambria 585/s (±6.7 %): cambria holds less (-22.0 %), beyond the precision</p>",
		`<td class="num">750/s to below 800/s</td>`, `<td class="num">570/s to below 640/s</td>`,
		`<span class="badge fail">FAIL (1 of 2)</span>`, `<td class="fail nowrap">FAIL</td><td class="num">675/s</td>`,
		`<td class="pass nowrap">PASS</td><td class="num">525/s</td>`,
		`<td class="key">cambria</td><td>b2.json</td><td class="num">570/s</td><td class="num">608/s</td><td>error_rate&lt;0.1%: 6.50%</td>`, "dmaap: http://127.0.0.1:8080/eventListener/v7?a=&lt;b&gt;&amp;c=|d|; SLOs p99&lt;100ms, error_rate&lt;0.1%",
		"cambria b1.json: a &lt;script&gt;alert(1)&lt;/script&gt; note",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(page[strings.Index(page, `<section id="searches"`):], "<tr>"); n != 4 {
		t.Errorf("the searches' table has %d rows, want the header and 3 searches", n)
	}
	if strings.Contains(page, "different SLOs") {
		t.Error("searches judged by the same SLOs are said to differ")
	}
	if page != renderCapacityComparison(t, c, a, b) {
		t.Error("the page is not deterministic")
	}
	goldenPage(t, "capacity_comparison.html.golden", page)
}

// TestCapacityComparisonPageBare: searches without steps still give a
// page that says why there are no curves, a comparison within the
// precision says so in its badge, and missing input is an error.
func TestCapacityComparisonPageBare(t *testing.T) {
	t.Parallel()
	bare := func(max float64) []*result.CapacityDocument {
		return []*result.CapacityDocument{{Schema: result.CapacitySchema, Capacity: result.Capacity{MaxRPS: max, FailRPS: max * 1.1, PrecisionPct: 10}}}
	}
	a, b := bare(1000), bare(1020)
	b[0].Config.SLOs = []string{"p99<1s"}
	c, err := capcmp.Compare("", "", nil, nil, a, b, nil, compare.UndecidedFail)
	if err != nil {
		t.Fatal(err)
	}
	page := renderCapacityComparison(t, c, a, b)
	for _, want := range []string{"No search of either side has steps.", `<span class="badge ">WITHIN THE PRECISION</span>`, "<td>search 1</td>",
		"<li>the searches were judged by different SLOs (none; p99&lt;1s): their capacities answer different questions</li>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := len(pageCharts(t, page)); n != 0 || strings.Contains(page, `id="gates"`) {
		t.Errorf("%d charts or a gates section, want none", n)
	}
	if err := CapacityComparison(new(bytes.Buffer), nil, a, b); err == nil {
		t.Error("no comparison rendered without an error")
	}
	if err := CapacityComparison(new(bytes.Buffer), c, a, []*result.CapacityDocument{nil}); err == nil {
		t.Error("a missing document rendered without an error")
	}
}

// capacityHistory is eight searches of four builds, two each, whose
// capacity drops by a fifth at 1.11: one change point.
func capacityHistory(t *testing.T) *capcmp.History {
	t.Helper()
	var docs []*result.CapacityDocument
	var names []string
	for i, s := range []struct {
		build string
		max   float64
	}{{"1.9", 2300}, {"1.9", 2310}, {"1.10", 2290}, {"1.10", 2305}, {"1.11", 1800}, {"1.11", 1810}, {"1.12", 1790}, {"1.12", 1805}} {
		d := scaledCapacity(s.max/750, s.build, i)
		docs = append(docs, d)
		names = append(names, "runs/"+s.build+"-"+string(rune('a'+i%2))+".json")
	}
	h, err := capcmp.Trend(docs, names, capcmp.TrendOptions{By: "build", Detector: trend.Detector{MinSize: 3}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func renderCapacityTrend(t *testing.T, h *capcmp.History) string {
	t.Helper()
	var buf bytes.Buffer
	if err := CapacityTrend(&buf, h); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestCapacityTrendPage: one chart of capacity over the builds, its
// interval a band from the lowest max rps up to the lowest fail, the
// change point marked before 1.11 and listed, the builds' table with the
// drop coloured; its golden file holds the rest.
func TestCapacityTrendPage(t *testing.T) {
	t.Parallel()
	h := capacityHistory(t)
	page := renderCapacityTrend(t, h)
	charts := pageCharts(t, page)
	if len(charts) != 1 {
		t.Fatalf("%d charts, want 1", len(charts))
	}
	ch := charts[0]
	if got, want := labels(ch), []string{"max rps", "lowest fail", "lowest max rps"}; !slices.Equal(got, want) {
		t.Errorf("series %q, want %q", got, want)
	}
	if ch.Axis != axisRuns || !slices.Equal(ch.XNames, []string{"1.9", "1.10", "1.11", "1.12"}) || len(ch.Data[0]) != 4 {
		t.Errorf("axis %s, builds %q, x %v", ch.Axis, ch.XNames, ch.Data[0])
	}
	if len(ch.Bands) != 1 || ch.Bands[0].Series != [2]int{2, 3} {
		t.Errorf("bands %+v, want one from lowest max rps (3) up to lowest fail (2)", ch.Bands)
	}
	if float64(ch.Data[1][0]) != 2305 || float64(ch.Data[3][0]) != 2300 || float64(ch.Data[2][0]) != 2464 {
		t.Errorf("1.9: mean %v, lowest %v, fail %v", ch.Data[1][0], ch.Data[3][0], ch.Data[2][0])
	}
	if len(ch.Marks) != 1 || ch.Marks[0].X != 1.5 || ch.Marks[0].Label != "1.11 -21.4 %" || ch.Marks[0].Color != hexColor(colVermilion) {
		t.Errorf("marks %+v, want one before 1.11, a drop", ch.Marks)
	}
	for _, want := range []string{
		"<h1>Capacity over builds: 1.9 … 1.12</h1>", "change points of max rps, one value per search",
		`<td class="key">1.11</td><td class="num">5</td><td class="num">2,305/s</td><td class="num">1,800/s</td><td class="num worse">-21.9 %</td>`,
		"1.11 holds 1,805/s, -21.4 % against 1.10&#39;s 2,298/s: beyond the precision",
		`<td class="worse">-21.4 % (beyond precision)</td><td>runs/1.11-a.json, runs/1.11-b.json</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	checkSelfContained(t, page)
	goldenPage(t, "capacity_trend.html.golden", page)
}

// openHistory is two searches by start time, the second of which never
// failed: it has no lowest fail.
func openHistory(t *testing.T) *capcmp.History {
	t.Helper()
	open := scaledCapacity(2, "1.1", 1)
	open.Capacity.FailRPS = 0
	h, err := capcmp.Trend([]*result.CapacityDocument{scaledCapacity(1, "1.0", 0), open}, []string{"a.json", "b.json"}, capcmp.TrendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestCapacityTrendPageOpen: a build whose search never failed has no
// lowest fail to draw, a history too short for change points says so,
// and no history is an error.
func TestCapacityTrendPageOpen(t *testing.T) {
	t.Parallel()
	page := renderCapacityTrend(t, openHistory(t))
	ch := pageCharts(t, page)[0]
	if got := labels(ch); !slices.Equal(got, []string{"max rps", "lowest fail"}) || !strings.Contains(page, "[0,1],[750,1500],[800,null]") || ch.XLabel != "search" {
		t.Errorf("series %q, lowest fails %v, x label %q: want one lowest fail, by search", got, ch.Data[2], ch.XLabel)
	}
	for _, want := range []string{"No change point in max rps.", "no change points: 2 searches", "<td class=\"num\">none failed</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []*capcmp.History{nil, {}} {
		if err := CapacityTrend(new(bytes.Buffer), bad); err == nil {
			t.Errorf("history %+v rendered without an error", bad)
		}
	}
}

// TestCapacityPagesEscapeHostileText: side names, builds and file names
// read from others' files reach both pages escaped for the browser (no
// element of theirs) and for a terminal (--format html on stdout).
func TestCapacityPagesEscapeHostileText(t *testing.T) {
	t.Parallel()
	evil := "\x1b[31m\u202e\x9b\a\u2066\x7f<img src=x onerror=alert(1)>"
	c, a, b := capacityAB(t, "dmaap"+evil, "cambria"+evil, []string{"b1" + evil + ".json", "b2.json"})
	var docs []*result.CapacityDocument
	for i, build := range []string{"1.0" + evil, "1.1" + evil} {
		docs = append(docs, scaledCapacity(1+float64(i), build, i))
	}
	h, err := capcmp.Trend(docs, []string{"runs/" + evil + "a.json", "b.json"}, capcmp.TrendOptions{By: "build"})
	if err != nil {
		t.Fatal(err)
	}
	renders := map[string]func(*bytes.Buffer) error{
		"comparison": func(w *bytes.Buffer) error { return CapacityComparison(w, c, a, b) },
		"trend":      func(w *bytes.Buffer) error { return CapacityTrend(w, h) },
	}
	reporttest.CheckRenderingsEscaped(t, renders)
	for name, render := range renders {
		var w bytes.Buffer
		if err := render(&w); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(w.String(), "<img") || !strings.Contains(w.String(), "&lt;img src=x onerror=alert(1)&gt;") {
			t.Errorf("%s: the hostile element is not escaped", name)
		}
		pageCharts(t, w.String())
	}
}
