package metrics

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/report/result"
)

// request counts one request and hands its latencies to e in a second
// of their own, as the engine's timeline builds it.
func request(e *Exporter, outcome string, code int, latency, service time.Duration) {
	e.CountRequest(outcome, code)
	t := result.NewTally()
	t.Add(result.Outcome{Class: outcome, Latency: latency, Service: service})
	e.ObserveSecond(&t)
}

// observeAll feeds e one observation of every kind.
func observeAll(e *Exporter) {
	for range 3 {
		request(e, "ok", 202, 3*time.Millisecond, 2*time.Millisecond)
	}
	request(e, "http_503", 503, 40*time.Millisecond, 39*time.Millisecond)
	request(e, "pool_exhausted", 0, 0, 0)
	request(e, "timeout", 0, 10*time.Second, 9*time.Second)
	request(e, "dial tcp 10.0.0.7:8443: connect: connection refused", 0, time.Millisecond, 0)
	e.SetInFlight(7)
	e.SetUnsent(6700, 0)
	e.SetRates(100, 98.5)
	e.SetDispatchLag(50*time.Microsecond, 900*time.Microsecond, 3*time.Millisecond)
	e.SetTarget(sample.Reading{CPUPct: 55, RSSBytes: 1 << 30, Extra: map[string]float64{"cpu": 0.55, sample.ExtraSystemCPUPct: 31}})
	e.SetGenerator(sample.Reading{CPUPct: 12, RSSBytes: 64 << 20})
}

// scrape fetches the handler's text exposition and parses it.
func scrape(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value finds the sample of family name with exactly the given labels.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	t.Helper()
	for _, m := range fams[name].GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.GetCounter() != nil:
			return m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			return m.GetGauge().GetValue()
		case m.GetHistogram() != nil:
			return float64(m.GetHistogram().GetSampleCount())
		}
	}
	t.Errorf("no %s%v in the scrape", name, labels)
	return 0
}

func hasLabels(m *dto.Metric, want map[string]string) bool {
	if len(m.GetLabel()) != len(want) {
		return false
	}
	for _, l := range m.GetLabel() {
		if want[l.GetName()] != l.GetValue() {
			return false
		}
	}
	return true
}

func TestExporterScrape(t *testing.T) {
	t.Parallel()
	e := New()
	observeAll(e)
	fams := scrape(t, e.Handler())
	tests := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"vesload_requests_total", map[string]string{"outcome": "ok", "code": "202"}, 3},
		{"vesload_requests_total", map[string]string{"outcome": "http_503", "code": "503"}, 1},
		{"vesload_requests_total", map[string]string{"outcome": "pool_exhausted", "code": "none"}, 1},
		{"vesload_requests_total", map[string]string{"outcome": "timeout", "code": "none"}, 1},
		{"vesload_requests_total", map[string]string{"outcome": "other", "code": "none"}, 1},
		{"vesload_pool_exhausted_total", nil, 1},
		{"vesload_requests_not_sent_total", nil, 1}, // pool exhausted; a refused connection was sent, as the result counts it
		{"vesload_request_latency_seconds", nil, 6}, // only those that were sent
		{"vesload_request_service_seconds", nil, 6},
		{"vesload_in_flight", nil, 7},
		{"vesload_requests_not_yet_due", nil, 6700}, // to come: not lost
		{"vesload_requests_stopped", nil, 0},
		{"vesload_target_rps", nil, 100},
		{"vesload_achieved_rps", nil, 98.5},
		{"vesload_dispatch_lag_seconds", map[string]string{"stat": "p50"}, 50e-6},
		{"vesload_dispatch_lag_seconds", map[string]string{"stat": "p99"}, 900e-6},
		{"vesload_dispatch_lag_seconds", map[string]string{"stat": "max"}, 3e-3},
		{"vesload_target_cpu_percent", nil, 55},
		{"vesload_target_rss_bytes", nil, 1 << 30},
		{"vesload_target_series", map[string]string{"series": "cpu"}, 0.55},
		{"vesload_target_series", map[string]string{"series": "system_cpu_pct"}, 31},
		{"vesload_generator_cpu_percent", nil, 12},
		{"vesload_generator_rss_bytes", nil, 64 << 20},
	}
	for _, tt := range tests {
		if got := value(t, fams, tt.name, tt.labels); got != tt.want {
			t.Errorf("%s%v = %v, want %v", tt.name, tt.labels, got, tt.want)
		}
	}
	if _, ok := fams["go_goroutines"]; !ok {
		t.Error("Go runtime collector missing")
	}
	if _, ok := fams["process_resident_memory_bytes"]; !ok {
		t.Error("process collector missing")
	}
	// The classic buckets are there: 3 ms and the refused connection's
	// 1 ms land in the 5 ms bucket; pool_exhausted (never sent) is not
	// observed.
	h := fams["vesload_request_latency_seconds"].GetMetric()[0].GetHistogram()
	for _, b := range h.GetBucket() {
		if b.GetUpperBound() == 0.005 && b.GetCumulativeCount() != 4 {
			t.Errorf("latency bucket le=0.005 holds %d, want 4", b.GetCumulativeCount())
		}
	}
	if n := len(latencyBuckets()); len(h.GetBucket()) != n+1 { // and +Inf
		t.Errorf("%d classic buckets, want %d and +Inf", len(h.GetBucket()), n)
	}
}

func TestExporterLabelsAreBounded(t *testing.T) {
	t.Parallel()
	e := New()
	for i := range 500 {
		request(e, fmt.Sprintf("class_%d", i), 200+i%400, time.Millisecond, time.Millisecond)
		request(e, fmt.Sprintf("POST /eventListener/v7 id=%d failed", i), 0, time.Millisecond, 0)
	}
	for i := range 100 {
		e.SetTarget(sample.Reading{NoCPU: true, Extra: map[string]float64{fmt.Sprintf("q%d", i): 1}})
	}
	fams := scrape(t, e.Handler())
	if n := len(fams["vesload_requests_total"].GetMetric()); n > maxRequestSeries+1 {
		t.Errorf("%d request series, want at most %d", n, maxRequestSeries+1)
	}
	if n := len(fams["vesload_target_series"].GetMetric()); n != maxTargetSeries {
		t.Errorf("%d target series, want the cap %d", n, maxTargetSeries)
	}
	var total float64
	for name, mf := range fams {
		if !strings.HasPrefix(name, "vesload_") || name == "vesload_requests_not_sent_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			total += m.GetCounter().GetValue()
			for _, l := range m.GetLabel() {
				if strings.ContainsAny(l.GetValue(), " /:=") || len(l.GetValue()) > 32 {
					t.Errorf("%s has label %s=%q", name, l.GetName(), l.GetValue())
				}
			}
		}
	}
	// Nothing is lost past the cap: every request is still counted.
	if want := float64(1000); value(t, fams, "vesload_pool_exhausted_total", nil) != 0 || total != want {
		t.Errorf("counted %v requests, want %v", total, want)
	}
	if len(*e.counters.Load()) > maxRequestSeries {
		t.Errorf("label cache holds %d entries, want at most %d", len(*e.counters.Load()), maxRequestSeries)
	}
}

func TestSetTargetKeepsMissingFigures(t *testing.T) {
	t.Parallel()
	e := New()
	e.SetTarget(sample.Reading{CPUPct: 40, RSSBytes: 1000})
	e.SetTarget(sample.Reading{NoCPU: true}) // a reading without CPU or memory
	e.SetGenerator(sample.Reading{CPUPct: 5, RSSBytes: 10})
	e.SetGenerator(sample.Reading{NoCPU: true})
	fams := scrape(t, e.Handler())
	for name, want := range map[string]float64{
		"vesload_target_cpu_percent": 40, "vesload_target_rss_bytes": 1000,
		"vesload_generator_cpu_percent": 5, "vesload_generator_rss_bytes": 10,
	} {
		if got := value(t, fams, name, nil); got != want {
			t.Errorf("%s = %v, want %v kept", name, got, want)
		}
	}
}

func TestNativeHistograms(t *testing.T) {
	t.Parallel()
	e := New()
	observeAll(e)
	srv := httptest.NewServer(e.Handler())
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	format := expfmt.NewFormat(expfmt.TypeProtoDelim)
	req.Header.Set("Accept", string(format))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	dec := expfmt.NewDecoder(resp.Body, expfmt.ResponseFormat(resp.Header))
	found := map[string]bool{}
	for {
		var mf dto.MetricFamily
		if err := dec.Decode(&mf); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		for _, m := range mf.GetMetric() {
			if h := m.GetHistogram(); h != nil && h.Schema != nil && len(h.GetPositiveSpan()) > 0 && len(h.GetBucket()) > 0 {
				found[mf.GetName()] = true
			}
		}
	}
	for _, name := range []string{"vesload_request_latency_seconds", "vesload_request_service_seconds"} {
		if !found[name] {
			t.Errorf("%s lacks native buckets beside its classic ones", name)
		}
	}
}

func TestCountRequestAllocatesNothing(t *testing.T) {
	e := New()
	observeAll(e) // resolves the label pairs
	allocs := testing.AllocsPerRun(1000, func() {
		e.CountRequest("ok", 202)
		e.CountRequest("http_503", 503)
	})
	if allocs != 0 {
		t.Errorf("CountRequest allocates %v times per call pair, want 0", allocs)
	}
}

func BenchmarkCountRequest(b *testing.B) {
	e := New()
	outcomes := []struct {
		outcome string
		code    int
	}{{"ok", 202}, {"ok", 202}, {"ok", 202}, {"http_503", 503}, {"timeout", 0}, {"pool_exhausted", 0}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		o := outcomes[i%len(outcomes)]
		e.CountRequest(o.outcome, o.code)
		i++
	}
}

// TestExporterStandardSeries checks what stock Go dashboards read: the
// runtime's and the process's series under client_golang's names.
func TestExporterStandardSeries(t *testing.T) {
	t.Parallel()
	fams := scrape(t, New().Handler())
	for _, name := range []string{
		"go_gc_duration_seconds", "go_goroutines", "go_memstats_heap_alloc_bytes", "go_memstats_mallocs_total",
		"go_memstats_stack_inuse_bytes", "go_memstats_last_gc_time_seconds", "process_cpu_seconds_total",
		"process_resident_memory_bytes", "process_start_time_seconds",
	} {
		if _, ok := fams[name]; !ok {
			t.Errorf("no %s in the scrape", name)
		}
	}
}

// TestExporterOpenMetrics asks as an OpenMetrics scraper does: the answer
// is OpenMetrics, ends in # EOF and decodes.
func TestExporterOpenMetrics(t *testing.T) {
	t.Parallel()
	e := New()
	observeAll(e)
	srv := httptest.NewServer(e.Handler())
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/openmetrics-text") {
		t.Fatalf("Content-Type %q, want OpenMetrics", ct)
	}
	if !strings.HasSuffix(string(body), "# EOF\n") {
		t.Errorf("the exposition does not end in # EOF: ...%q", body[max(0, len(body)-40):])
	}
	if !strings.Contains(string(body), "vesload_requests_total{code=\"202\",outcome=\"ok\"} 3") {
		t.Errorf("no vesload_requests_total for ok/202 in:\n%s", body)
	}
}

// A stopped run's rest is read as stopped, not as still to come.
func TestExporterUnsentAfterStop(t *testing.T) {
	t.Parallel()
	e := New()
	e.SetUnsent(6700, 0)
	e.SetUnsent(0, 6650)
	fams := scrape(t, e.Handler())
	if got := value(t, fams, "vesload_requests_not_yet_due", nil); got != 0 {
		t.Errorf("not yet due %v after the stop, want 0", got)
	}
	if got := value(t, fams, "vesload_requests_stopped", nil); got != 6650 {
		t.Errorf("stopped %v, want 6650", got)
	}
}
