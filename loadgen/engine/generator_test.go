package engine

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/output/metrics"
	"github.com/vesload/vesload/report/result"
)

// TestGeneratorMemory: the result's generator section has the peaks of
// resident memory, of its anonymous part and of the Go heap in use, from
// the one meter of the generator's own process.
func TestGeneratorMemory(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	res := run(t, testConfig(t, srv.URL+"/eventListener/v7", 100, 1500*time.Millisecond))
	g := res.Generator
	// The Go heap is read by the runtime and the RSS by the kernel, each
	// at its own moment of a process that other tests share: the two
	// maxima are not ordered, where the anonymous part of one reading of
	// the RSS is.
	if g.RSSMaxBytes < 1<<20 || g.RSSAnonMaxBytes <= 0 || g.RSSAnonMaxBytes > g.RSSMaxBytes || g.GoHeapMaxBytes <= 0 {
		t.Errorf("generator RSS %d, anonymous %d, Go heap %d; want 0 < heap, anonymous ≤ RSS",
			g.RSSMaxBytes, g.RSSAnonMaxBytes, g.GoHeapMaxBytes)
	}
}

// liveObserver feeds an exporter as the command's live metrics do.
type liveObserver struct {
	NopObserver
	exp *metrics.Exporter
}

func (o liveObserver) Request(ev *RequestEvent) { o.exp.CountRequest(ev.Outcome, ev.Code) }

func (o liveObserver) Timeline(_ result.Second, t *result.Tally) { o.exp.ObserveSecond(t) }

// TestLiveLatencyCountsSentOnly: with a pool of 4 against a target that
// takes 200 ms (in a synctest bubble), most due requests find no connection; the live latency
// histogram, merged from the engine's seconds, counts exactly the
// requests sent, and those never sent are counted apart.
func TestLiveLatencyCountsSentOnly(t *testing.T) {
	t.Parallel()
	exp := metrics.New()
	s, err := Constant(100, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Load: s, Pool: 4, PoolWait: 10 * time.Millisecond, Timeout: 2 * time.Second,
		Observers: []Observer{liveObserver{exp: exp}}}
	res, _ := runVirtual(t, cfg, &virtualTarget{service: 200 * time.Millisecond})
	if res.Errors["pool_exhausted"] == 0 {
		t.Fatalf("no pool exhaustion (errors %v): the test shows nothing", res.Errors)
	}
	fams, err := exp.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var latency, notSent float64
	for _, mf := range fams {
		switch mf.GetName() {
		case "vesload_request_latency_seconds":
			latency = float64(mf.GetMetric()[0].GetHistogram().GetSampleCount())
		case "vesload_requests_not_sent_total":
			notSent = mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	if latency != float64(res.Requests.Sent) {
		t.Errorf("live latency count %v, want the %d requests sent", latency, res.Requests.Sent)
	}
	if want := float64(res.Requests.Scheduled - res.Requests.Sent); notSent != want {
		t.Errorf("live not-sent count %v, want %v", notSent, want)
	}
}
