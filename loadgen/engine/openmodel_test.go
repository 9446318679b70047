package engine

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// virtualTarget is a transport whose every answer takes service, and a
// frozen target's hold on top (hold, when set, says how long an answer
// written at now is held), waited on clock.Runtime: in a synctest bubble
// the target is as slow as asked, to the nanosecond, however busy the
// machine.
type virtualTarget struct {
	stubTransport
	service time.Duration
	hold    func(now time.Time) time.Duration

	inFlight, maxInFlight atomic.Int64 // requests it holds at once
}

func (v *virtualTarget) NewSender() (transport.Sender, func()) { return v, func() {} }

func (v *virtualTarget) Send(r *transport.Request, o *transport.Outcome) {
	o.Written = time.Now()
	n := v.inFlight.Add(1)
	for m := v.maxInFlight.Load(); n > m && !v.maxInFlight.CompareAndSwap(m, n); m = v.maxInFlight.Load() {
	}
	defer v.inFlight.Add(-1)
	wait := v.service
	if v.hold != nil {
		wait += v.hold(o.Written)
	}
	clock.Sleep(context.Background(), clock.Runtime{}, wait, nil)
	o.Done = time.Now()
	o.Class, o.Code, o.BytesSent, o.BytesRecv = transport.OK, 202, 10, 10
}

// runVirtual runs cfg against tr inside a synctest bubble, on
// clock.Runtime, and returns the result and how long the run took in the
// bubble's time.
func runVirtual(t *testing.T, cfg Config, tr transport.Transport) (res *result.Result, took time.Duration) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		cfg.Transport, cfg.Clock, cfg.NoPreflight = tr, clock.Runtime{}, true
		cfg.Body = emptyBody{}
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		begin := time.Now()
		if res, err = e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		took = time.Since(begin)
	})
	checkAccounting(t, res)
	return res, took
}

// A request waiting for a connection waits on its own: later requests
// leave on time, the run ends on schedule (plus the last wait and the
// drain), and the pool, not the generator, is named as the limit. The
// run is in a synctest bubble against a target answering in 200 ms of
// its virtual time: the dispatcher, the pool waiter and the target keep
// the same clock, and the machine's load cannot delay any of them.
func TestPoolWaitKeepsTheSchedule(t *testing.T) {
	t.Parallel()
	s, err := Constant(100, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Load: s, Pool: 4, PoolWait: 100 * time.Millisecond, Timeout: 2 * time.Second}
	res, took := runVirtual(t, cfg, &virtualTarget{service: 200 * time.Millisecond})
	// The run ends on schedule (5 s) plus at most the last wait and the
	// last answer.
	if limit := 5*time.Second + 300*time.Millisecond; took > limit {
		t.Errorf("the run took %v, want at most %v (5 s schedule + last wait + drain)", took, limit)
	}
	q, pe := res.Requests, res.Errors[result.ClassPoolExhausted]
	if q.Scheduled != 500 || q.NotSent != 0 || q.Sent+pe != 500 || pe == 0 {
		t.Errorf("requests %+v, pool_exhausted %d: want all 500 sent or pool_exhausted, some refused", q, pe)
	}
	// Four connections serving 200 ms each carry 20/s of the 100/s.
	if q.Sent < 90 || q.Sent > 110 {
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
	// 20 s). In virtual time the dispatcher is never late at all.
	if g := res.Generator; g.DispatchLagMaxMs != 0 {
		t.Errorf("dispatch lag max %.3f ms, want none in virtual time", g.DispatchLagMaxMs)
	}
	checkBlame(t, res, time.Millisecond)
	if !hasWarning(res, "the pool was the limit") {
		t.Errorf("warnings %q: want the pool named as the limit", res.Warnings)
	}
	if res.RPS.Achieved < 18 || res.RPS.Achieved > 22 {
		t.Errorf("achieved %.1f/s, want the 20/s the pool carried", res.RPS.Achieved)
	}
}

// A target that stops answering shows as high latency in the seconds in
// which the requests were due, not as empty seconds followed by a burst,
// and it is not blamed on the generator. The target, in a synctest
// bubble, holds every answer written between 2 s and 4 s of the run
// until 4 s.
func TestFreezeShowsWhereItHappened(t *testing.T) {
	t.Parallel()
	s, err := Constant(100, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	fr := &freezer{from: 2 * time.Second, to: 4 * time.Second}
	cfg := Config{Load: s, Pool: 400, Timeout: 5 * time.Second, Observers: []Observer{fr}}
	res, _ := runVirtual(t, cfg, &virtualTarget{service: time.Millisecond, hold: fr.hold})
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

// freezer holds every answer written between from and to after the run
// began, until to.
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

// hold is how long an answer written at now is held.
func (f *freezer) hold(now time.Time) time.Duration {
	f.mu.Lock()
	start := f.start
	f.mu.Unlock()
	if at := now.Sub(start); at >= f.from && at < f.to {
		return f.to - at
	}
	return 0
}

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

// The dispatcher wakes at most once per coalescing window: below
// 1/coalesce requests a second each request leaves at its due time
// exactly, above it the requests due within a window leave together, at
// most one window late. In a synctest bubble the lag is the dispatcher's
// logic alone, to the microsecond.
func TestCoalescingInVirtualTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		rate      float64
		wantMaxUs int64 // the largest dispatch lag
	}{
		{"below the window's rate", 1000, 0},
		{"at twice it", 4000, 250}, // due every 250 µs, woken every 500 µs
		{"at ten times it", 20000, 450},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := Constant(tt.rate, 200*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			res, took := runVirtual(t, Config{Load: s, Pool: 64, PoolWait: time.Second, Timeout: time.Second}, &virtualTarget{})
			if q := res.Requests; q.Sent != s.Total() || q.OK != s.Total() {
				t.Fatalf("requests %+v, want all %d sent and answered", q, s.Total())
			}
			if got := int64(res.Generator.DispatchLagMaxMs * 1000); got != tt.wantMaxUs {
				t.Errorf("dispatch lag max %d µs, want %d", got, tt.wantMaxUs)
			}
			if took > 200*time.Millisecond+coalesce {
				t.Errorf("the run took %v, want its 200 ms and at most one window", took)
			}
		})
	}
}
