package engine

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

// A request waiting for a connection waits on its own: later requests
// leave on time, the run ends on schedule (plus the last wait and the
// drain), and the pool, not the generator, is named as the limit.
//
// It and the freeze below run alone (not in parallel): they measure when
// the run ends and how late the dispatcher was.
func TestPoolWaitKeepsTheSchedule(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		time.Sleep(200 * time.Millisecond)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	cfg := testConfig(t, srv.URL, 100, 5*time.Second)
	cfg.Pool = 4
	cfg.PoolWait = 100 * time.Millisecond
	begin := time.Now()
	res := run(t, cfg)
	// The run ends on schedule (5 s) plus the last wait and the drain (≤ 6 s
	// in all), later only by as much as the machine held the generator up,
	// which the dispatch lag measures.
	limit := 6*time.Second + time.Duration(res.Generator.DispatchLagMaxMs*float64(time.Millisecond))
	if took := time.Since(begin); took > limit {
		t.Errorf("the run took %v, want at most %v (5 s schedule + last wait + drain + the machine's stalls)", took, limit)
	}
	q, pe := res.Requests, res.Errors[result.ClassPoolExhausted]
	if q.Scheduled != 500 || q.NotSent != 0 || q.Sent+pe != 500 || pe == 0 {
		t.Errorf("requests %+v, pool_exhausted %d: want all 500 sent or pool_exhausted, some refused", q, pe)
	}
	// Four connections serving 200 ms each carry about 20/s of the 100/s.
	if q.Sent < 50 || q.Sent > 150 {
		t.Errorf("sent %d, want about 100 (4 connections × 5/s × 5 s)", q.Sent)
	}
	if len(res.Timeline) != 5 {
		t.Fatalf("timeline of %d seconds, want 5", len(res.Timeline))
	}
	for _, s := range res.Timeline {
		if s.Scheduled != 100 || s.Sent+s.PoolExhausted != 100 {
			t.Errorf("second %d: scheduled %d, sent %d + pool_exhausted %d; want 100 scheduled, all accounted for",
				s.T, s.Scheduled, s.Sent, s.PoolExhausted)
		}
	}
	// Waiting for a connection is not dispatch lag: a dispatcher that
	// waited in turn for each request fell seconds behind (the run took
	// 20 s). TestDispatcherNeverWaitsForAConnection checks the mechanism
	// without a clock.
	checkBlame(t, res, time.Second)
	if !hasWarning(res, "the pool was the limit") {
		t.Errorf("warnings %q: want the pool named as the limit", res.Warnings)
	}
	if res.RPS.Achieved < 10 || res.RPS.Achieved > 30 {
		t.Errorf("achieved %.1f/s, want the ~20/s the pool carried", res.RPS.Achieved)
	}
}

// A target that stops answering shows as high latency in the seconds in
// which the requests were due, not as empty seconds followed by a burst,
// and it is not blamed on the generator.
func TestFreezeShowsWhereItHappened(t *testing.T) {
	fr := &freezer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		fr.wait()
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	cfg := testConfig(t, srv.URL, 100, 10*time.Second)
	cfg.Pool = 400
	cfg.Timeout = 5 * time.Second
	cfg.Observers = []Observer{fr}
	fr.from, fr.to = 2*time.Second, 4*time.Second
	res := run(t, cfg)
	if res.Requests.OK != 1000 {
		t.Fatalf("requests %+v errors %v, want all 1000 answered", res.Requests, res.Errors)
	}
	if len(res.Timeline) != 10 {
		t.Fatalf("timeline of %d seconds, want 10", len(res.Timeline))
	}
	for _, s := range res.Timeline {
		if s.Scheduled != 100 || s.OK != 100 {
			t.Errorf("second %d: scheduled %d ok %d, want 100 each", s.T, s.Scheduled, s.OK)
		}
		// Bucketed by completion, the frozen seconds would have no latency
		// at all and the second after them all of it.
		switch {
		case s.T == 2 && s.P99Ms < 1000:
			t.Errorf("second 2 (frozen throughout): p99 %.1f ms, want ≥ 1 s", s.P99Ms)
		case s.T == 3 && s.P99Ms < 500:
			t.Errorf("second 3 (frozen throughout): p99 %.1f ms, want ≥ 0.5 s", s.P99Ms)
		}
	}
	if first := res.Timeline[0]; first.P99Ms >= res.Timeline[2].P99Ms/2 {
		t.Errorf("second 0 p99 %.1f ms against the frozen second's %.1f ms: want the freeze not smeared into it", first.P99Ms, res.Timeline[2].P99Ms)
	}
	checkBlame(t, res, time.Second)
	if !hasWarning(res, "the target stopped answering") {
		t.Errorf("warnings %q: want the freeze named", res.Warnings)
	}
}

// freezer holds every answer between from and to after the run began.
type freezer struct {
	NopObserver
	mu       sync.Mutex
	start    time.Time
	from, to time.Duration
}

func (f *freezer) Begin(start time.Time) {
	f.mu.Lock()
	f.start = start
	f.mu.Unlock()
}

func (f *freezer) wait() {
	f.mu.Lock()
	start := f.start
	f.mu.Unlock()
	if at := time.Since(start); at >= f.from && at < f.to {
		time.Sleep(f.to - at)
	}
}

// checkBlame checks that a limit outside the generator (a pool wait, a
// frozen target) left no mark on the dispatch lag: its p99 stays below
// limit, the delay the old single dispatcher took on. When the lag stays
// under the saturation threshold, as on a quiet machine, the run must not
// be marked saturated either.
func checkBlame(t *testing.T, res *result.Result, limit time.Duration) {
	t.Helper()
	g := res.Generator
	if lag := time.Duration(g.DispatchLagP99Ms * float64(time.Millisecond)); lag >= limit {
		t.Errorf("dispatch lag p99 %v ≥ %v: the dispatcher waited for the target", lag, limit)
	}
	quiet := g.DispatchLagP99Ms <= float64(saturatedLag)/float64(time.Millisecond) && g.CPUAvgPct < saturatedCPU
	if quiet && (g.Saturated || hasWarning(res, "generator saturated")) {
		t.Errorf("marked saturated with lag p99 %.2f ms and CPU %.1f%%", g.DispatchLagP99Ms, g.CPUAvgPct)
	}
}

func hasWarning(res *result.Result, prefix string) bool {
	for _, w := range res.Warnings {
		if strings.HasPrefix(w, prefix) {
			return true
		}
	}
	return false
}
