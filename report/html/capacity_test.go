package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
)

// TestCapacityPage: the result, five charts over a rate axis with the
// highest pass, the lowest fail and the knee marked, every step in the
// table, and everything read from the document escaped.
func TestCapacityPage(t *testing.T) {
	t.Parallel()
	d := reporttest.Capacity()
	d.Capacity.Advice = `add shards <img src=x onerror="alert(1)">`
	var b bytes.Buffer
	if err := Capacity(&b, d); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	charts := pageCharts(t, page)
	if len(charts) != 5 {
		t.Fatalf("%d charts, want 5 (latency by offered and achieved rate, errors, achieved, CPU)", len(charts))
	}
	for _, c := range charts {
		if c.Axis != axisRate {
			t.Errorf("chart %q on axis %q, want %q", c.Title, c.Axis, axisRate)
		}
	}
	marks := func(c chartData) map[string]float64 {
		m := map[string]float64{}
		for _, k := range c.Marks {
			m[k.Label] = k.X
		}
		return m
	}
	for i, want := range []map[string]float64{
		{"highest pass 750/s": 750, "lowest fail 800/s": 800, "knee 600/s": 600},
		{"highest pass 750/s": 749.4, "lowest fail 800/s": 758.9, "knee 600/s": 599.7}, // at the last run's achieved rate
	} {
		got := marks(charts[i])
		if len(got) != len(want) {
			t.Errorf("chart %q: marks %v, want %v", charts[i].Title, got, want)
		}
		for l, x := range want {
			if got[l] != x {
				t.Errorf("chart %q: mark %q at %v, want %v", charts[i].Title, l, got[l], x)
			}
		}
	}
	// Latency by offered rate: one x per rate (600 … 800: 100, 200, 400,
	// 600, 700, 750, 800), p99 of 750/s from its last run.
	lat := charts[0]
	if len(lat.Data[0]) != 7 || lat.Series[1].Label != "p99" || float64(lat.Data[2][5]) != 66.8 || !lat.Series[1].Dots {
		t.Errorf("latency chart: x %v, series %+v, p99 %v", lat.Data[0], lat.Series, lat.Data[2])
	}
	cpu := charts[4]
	if n := countValues(cpu.Data[1]); n != 6 { // 200/s was not sampled
		t.Errorf("CPU chart has %d points, want 6: %v", n, cpu.Data)
	}
	if n := strings.Count(page[strings.Index(page, `<section id="steps"`):], "<tr>"); n != 10 {
		t.Errorf("the steps' table has %d rows, want the header and 9 steps", n)
	}
	for _, want := range []string{
		"<h1>Capacity: 750/s</h1>", `<span class="badge pass">FOUND</span>`,
		`<td class="num pass">750/s</td>`, `<td class="num fail">800/s</td>`, "<td>error_rate&lt;0.1%: 6.50%</td>",
		"600/s: the lowest rate from which on p99 stays above 2× its value at the lowest rate",
		`<td class="fail nowrap">FAIL (target)</td><td>error_rate&lt;0.1%: 6.50%; stopped early</td>`, `<td class="num">n/a</td>`,
		`<td class="nowrap">confirm</td>`,
		"?a=&lt;b&gt;&amp;c=|d|", "a &lt;script&gt;alert(1)&lt;/script&gt; note", "add shards &lt;img src=x onerror=&#34;alert(1)&#34;&gt;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script>alert", "<img src=x", "<b>&c"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page carries %q unescaped", bad)
		}
	}
}

func countValues(col []jsonNum) int {
	n := 0
	for _, v := range col {
		if v == v { // NaN is null
			n++
		}
	}
	return n
}

// TestCapacityPageHV: an HV-VES search by producers says what its rates
// count and how many producers held, and its steps' travel time into
// Kafka is a third latency series (drawn only where a step followed its
// events) and a column of the table.
func TestCapacityPageHV(t *testing.T) {
	t.Parallel()
	d := reporttest.Capacity()
	d.Config.URL, d.Config.Protocol, d.Config.SizeBytes = "tcp://127.0.0.1:6061", result.ProtocolHV, 8192
	d.Config.Vary, d.Config.IntervalS = "producers", 0.01
	d.Capacity.MaxProducers, d.Capacity.FailProducers = 7, 8 // 750/s and 800/s in the fixture: not whole, but rendered as given
	for i := range d.Capacity.Steps[1:] {
		e2e := 2 + 100*float64(i)
		d.Capacity.Steps[i+1].E2EP99Ms = &e2e
	}
	var b bytes.Buffer
	if err := Capacity(&b, d); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, w := range []string{"<h1>Capacity: 750/s (7 producers)</h1>", "800/s (8 producers)",
		"producers added one by one, each sending a message every 10ms (100/s)", ">e2e p99 ms<", ">n/a<", ">102.00<"} {
		if !strings.Contains(page, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	lat := pageCharts(t, page)[0]
	if len(lat.Series) != 3 || lat.Series[2].Label != "e2e p99" {
		t.Fatalf("latency chart's series %+v: want p50, p99 and e2e p99 over the rate", lat.Series)
	}
	// 100/s, the first step's rate, did not follow its events: no point
	// (null, which the decoding above reads as 0).
	if e2e := lat.Data[3]; e2e[1] != 2 || !strings.Contains(page, "[null,2,102,302,402,602,702]") {
		t.Errorf("e2e p99 by rate %v: want none at 100/s and 2 ms at 200/s", e2e)
	}
}

// TestCapacityPageUndecided: a search that decided nothing says so in a
// banner and its badge, and a document without steps draws no chart.
func TestCapacityPageUndecided(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		doc  *result.CapacityDocument
		want []string
	}{
		{"undecided", &result.CapacityDocument{Capacity: result.Capacity{FailRPS: 50, Undecided: "no step held the SLOs, down to <1/s>",
			Steps: []result.CapacityStep{{N: 1, Phase: "climb", OfferedRPS: 50, Requests: 500, P99Ms: 700, Cause: "target"}}}},
			[]string{"<h1>Capacity: no rate held the SLOs</h1>", `<p class="banner">no step held the SLOs, down to &lt;1/s&gt;</p>`,
				`<span class="badge fail">UNDECIDED</span>`, "none: p99 stayed within", "The target&#39;s CPU was not sampled"}},
		{"empty", &result.CapacityDocument{}, []string{"No step ran.", "No step was measured."}},
	} {
		var b bytes.Buffer
		if err := Capacity(&b, tc.doc); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: the page lacks %q", tc.name, w)
			}
		}
	}
	if err := Capacity(&bytes.Buffer{}, nil); err == nil {
		t.Error("no document rendered without an error")
	}
}

// TestCapacityKnee: the lowest rate from which on p99 stays above twice
// the lowest rate's, each rate at its last run, steps without figures
// left out.
func TestCapacityKnee(t *testing.T) {
	t.Parallel()
	st := func(rate, p99 float64) result.CapacityStep {
		return result.CapacityStep{OfferedRPS: rate, P99Ms: p99, Requests: 100}
	}
	for _, tc := range []struct {
		name  string
		steps []result.CapacityStep
		want  float64
		ok    bool
	}{
		{"the search's order", reporttest.Capacity().Capacity.Steps, 600, true},
		{"flat", []result.CapacityStep{st(100, 5), st(200, 6), st(400, 9.9)}, 0, false},
		{"one step", []result.CapacityStep{st(100, 5)}, 0, false},
		{"exactly twice is no knee", []result.CapacityStep{st(100, 5), st(200, 10), st(400, 10.5)}, 400, true},
		{"bisection below the climb's failure", []result.CapacityStep{st(100, 5), st(800, 90), st(400, 6), st(600, 11)}, 600, true},
		{"a slow step below the knee is noise", []result.CapacityStep{st(100, 5), st(200, 12), st(400, 6), st(800, 20)}, 800, true},
		{"back at its level at the top", []result.CapacityStep{st(100, 5), st(200, 12), st(400, 6)}, 0, false},
		{"a rate's last run counts", []result.CapacityStep{st(100, 5), st(600, 30), st(600, 8)}, 0, false},
		{"no requests, no p99", []result.CapacityStep{{OfferedRPS: 50}, st(100, 5), st(200, 11), {OfferedRPS: 400, Requests: 10}}, 200, true},
	} {
		got, ok := capacityKnee(tc.steps)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: knee %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
