package promtext

import (
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/vesload/vesload/internal/golden"
)

// writeAll writes one family of every kind the writers support.
func writeAll(w *Writer) {
	w.Header("demo_requests_total", Counter, "Requests by code.\nSecond line with a back\\slash.")
	w.Count("demo_requests_total", []Label{{"code", "200"}, {"outcome", "ok"}}, 1<<53+1)
	w.Count("demo_requests_total", []Label{{"code", "none"}, {"outcome", `a "quoted" \ value` + "\n"}}, 0)
	w.Header("demo_temperature", Gauge, "Special values.")
	for _, v := range []struct {
		name string
		v    float64
	}{{"nan", math.NaN()}, {"pinf", math.Inf(1)}, {"ninf", math.Inf(-1)}, {"one", 1}, {"tiny", 5e-324}, {"big", 1e21}, {"neg", -0.25}} {
		w.Sample("demo_temperature", []Label{{"v", v.name}}, v.v)
	}
	w.Header("demo_latency_seconds", Histogram, "A histogram.")
	bounds := []float64{0.0005, 0.001, 1, 60}
	native := BuildNative(3, []int32{-80, -79, 0, 8}, []uint64{1, 2, 0, 1}, 1e-6, 1, 160)
	w.Histogram("demo_latency_seconds", nil, HistogramValue{Bounds: bounds, Cumulative: []uint64{1, 3, 3, 4}, Sum: 12.5, Count: 5, Native: &native})
	w.Histogram("demo_latency_seconds", []Label{{"route", "b"}}, HistogramValue{Bounds: bounds, Cumulative: []uint64{0, 0, 0, 0}, Native: &NativeBuckets{Schema: 3}})
	w.Header("demo_travel_seconds", Summary, "A summary.")
	w.Summary("demo_travel_seconds", []Label{{"topic", "perf3gpp"}}, []Quantile{{0.5, 0.002}, {0.99, 0.02}}, 3.5, 1000)
}

func TestWriterGolden(t *testing.T) {
	t.Parallel()
	var w Writer
	writeAll(&w)
	golden.Check(t, filepath.Join("testdata", "written.golden"), w.Bytes())
}

// TestWriterAgreesWithExpfmt reads the writer's output with expfmt's text
// parser (what Prometheus' own libraries accept) and with Parse, and wants
// the same samples from both.
func TestWriterAgreesWithExpfmt(t *testing.T) {
	t.Parallel()
	var w Writer
	writeAll(&w)
	want, got := expfmtSamples(t, w.Bytes()), ourSamples(t, w.Bytes(), Text)
	if len(want) != 27 {
		t.Errorf("expfmt read %d samples, want 27", len(want))
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || !sameValue(g, v) {
			t.Errorf("%s = %v (found %v), expfmt reads %v", k, g, ok, v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Parse read %d samples, expfmt %d", len(got), len(want))
	}
	if v := got[key("demo_requests_total", []Label{{"code", "200"}, {"outcome", "ok"}})]; v != 1<<53 {
		t.Errorf("large count reads %v", v) // 2^53+1 is not a float64: the nearest is 2^53
	}
}

func TestWriterReset(t *testing.T) {
	t.Parallel()
	var w Writer
	w.Sample("a", nil, 1)
	w.Reset(false)
	w.Sample("b", nil, 2)
	if got := string(w.Bytes()); got != "b 2\n" {
		t.Errorf("after Reset: %q", got)
	}
}

func TestHandler(t *testing.T) {
	t.Parallel()
	n := 0
	h := Handler(func(w *Writer) {
		n++
		w.Count("scrapes_total", nil, uint64(n))
	})
	for want := 1; want <= 2; want++ {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		body, _ := io.ReadAll(rec.Body)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != ContentType || string(body) != "scrapes_total "+string(rune('0'+want))+"\n" {
			t.Errorf("scrape %d: %d %q %q", want, rec.Code, rec.Header().Get("Content-Type"), body)
		}
	}
}

func BenchmarkWriter(b *testing.B) {
	var w Writer
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(false)
		writeAll(&w)
	}
}
