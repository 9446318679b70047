package rendezvous

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock stands still unless a test moves it; Sleep returns at once
// (counting the calls) unless stop is already closed.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps atomic.Int64
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func (c *fakeClock) Sleep(_ time.Duration, stop <-chan struct{}) bool {
	c.sleeps.Add(1)
	select {
	case <-stop:
		return false
	default:
		return true
	}
}

var t0 = time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC)

// TestAllShardsGetOneStart has four shards arrive at different times
// (of the coordinator's clock): all get the same instant, Lead after the
// last arrival, and none before the last has arrived.
func TestAllShardsGetOneStart(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{now: t0}
	c := NewCoordinator("r1", 4, DefaultLead, clk)
	srv := httptest.NewServer(c)
	defer srv.Close()
	starts := make([]time.Time, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range 3 {
		clk.set(t0.Add(time.Duration(i) * 3 * time.Second))
		wg.Go(func() {
			starts[i], errs[i] = Join(context.Background(), srv.Client(), srv.URL, Ready{RunID: "r1", Shard: i, Count: 4}, clk)
		})
	}
	waitMissing(t, c, []int{3})
	clk.set(t0.Add(9 * time.Second))
	// Shard 3 is the coordinator's own: in process, as shard 0 is in a Job.
	starts[3], errs[3] = c.Arrive(context.Background(), Ready{RunID: "r1", Shard: 3, Count: 4})
	wg.Wait()
	want := t0.Add(9*time.Second + DefaultLead)
	for i := range 4 {
		if errs[i] != nil || !starts[i].Equal(want) {
			t.Errorf("shard %d: start %v err %v, want %v", i, starts[i], errs[i], want)
		}
	}
	// Asking again (a broken connection) gets the same start.
	again, err := Join(context.Background(), srv.Client(), srv.URL, Ready{RunID: "r1", Shard: 1, Count: 4}, clk)
	if err != nil || !again.Equal(want) {
		t.Errorf("asked again: %v %v, want %v", again, err, want)
	}
}

// waitMissing waits until exactly the shards in want are missing.
func waitMissing(t *testing.T, c *Coordinator, want []int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := c.Missing(); len(m) == len(want) && (len(m) == 0 || m[0] == want[0]) {
			return
		}
		time.Sleep(time.Millisecond) // polls the other goroutines, not a clock
	}
	t.Fatalf("missing %v, want %v", c.Missing(), want)
}

// TestShardNeverArrives: the coordinator gives up at its deadline and
// every waiting shard learns it at once, rather than at its own deadline.
func TestShardNeverArrives(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{now: t0}
	c := NewCoordinator("r1", 3, DefaultLead, clk)
	srv := httptest.NewServer(c)
	defer srv.Close()
	var err1 error
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err1 = Join(context.Background(), srv.Client(), srv.URL, Ready{RunID: "r1", Shard: 1, Count: 3}, clk)
	}()
	waitMissing(t, c, []int{0, 2})
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // shard 0's ready timeout
	if _, err := c.Arrive(ctx, Ready{RunID: "r1", Shard: 0, Count: 3}); err == nil {
		t.Fatal("shard 0 got a start without shard 2")
	}
	c.Fail(errors.New("shards [2] not ready within 5m0s"))
	<-done
	if err1 == nil || !strings.Contains(err1.Error(), "shards [2] not ready") {
		t.Fatalf("shard 1: %v, want the coordinator's reason", err1)
	}
}

// TestJoinRetriesUntilReachable: a coordinator that is not up yet is asked
// again; one that never comes up ends the wait with the context.
func TestJoinRetriesUntilReachable(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{now: t0}
	c := NewCoordinator("r1", 1, time.Second, clk)
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 3 { // not ready: a proxy's or a half-started server's answer
			http.Error(w, "starting", http.StatusBadGateway)
			return
		}
		c.ServeHTTP(w, r)
	}))
	defer srv.Close()
	start, err := Join(context.Background(), srv.Client(), srv.URL, Ready{RunID: "r1", Shard: 0, Count: 1}, clk)
	if err != nil || !start.Equal(t0.Add(time.Second)) || clk.sleeps.Load() != 3 {
		t.Fatalf("start %v err %v after %d waits, want %v after 3", start, err, clk.sleeps.Load(), t0.Add(time.Second))
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Join(ctx, srv.Client(), "http://127.0.0.1:1", Ready{RunID: "r1", Count: 1}, clk); err == nil || !strings.Contains(err.Error(), "no start from") {
		t.Fatalf("unreachable coordinator: %v", err)
	}
}

// TestRefusals: a shard of another run or another count is refused at
// once (409), without waiting.
func TestRefusals(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{now: t0}
	c := NewCoordinator("r1", 2, time.Second, clk)
	srv := httptest.NewServer(c)
	defer srv.Close()
	for _, tt := range []struct {
		r    Ready
		want string
	}{
		{Ready{RunID: "r2", Shard: 1, Count: 2}, `of run "r2"`},
		{Ready{RunID: "r1", Shard: 1, Count: 3}, "counts 3 shards"},
		{Ready{RunID: "r1", Shard: 2, Count: 2}, "want 0 to 1"},
	} {
		_, err := Join(context.Background(), srv.Client(), srv.URL, tt.r, clk)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.r, err, tt.want)
		}
	}
	if clk.sleeps.Load() != 0 {
		t.Errorf("a refusal was asked again %d times", clk.sleeps.Load())
	}
	resp, err := srv.Client().Post(srv.URL+Path, "application/json", strings.NewReader("{"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a broken signal: %s", resp.Status)
	}
}

// FuzzServeReady feeds the coordinator arbitrary bodies: it answers
// without panicking, and never with a start for a run it does not hold.
func FuzzServeReady(f *testing.F) {
	for _, s := range []string{`{"run_id":"r1","shard":0,"count":1}`, `{"run_id":"x"}`, `{`, `[]`, `{"shard":-1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		c := NewCoordinator("r1", 1, time.Second, &fakeClock{now: t0})
		w := httptest.NewRecorder()
		c.ServeHTTP(w, httptest.NewRequest(http.MethodPost, Path, strings.NewReader(body)))
		if w.Code == http.StatusOK && !strings.Contains(body, "r1") {
			t.Fatalf("started a run for %q", body)
		}
	})
}

// TestConsumerIsAMember: a run that waits for its consumer starts only
// once the consumer arrived too, however late, Lead after it; the
// consumer's answer carries the run's plan, the shards' does not. A
// consumer of a run that waits for none is refused at once.
func TestConsumerIsAMember(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{now: t0}
	c := NewCoordinator("r1", 2, DefaultLead, clk)
	plan := json.RawMessage(`{"plan":{"run_id":"r1","events":40}}`)
	c.WaitForConsumer(plan)
	srv := httptest.NewServer(c)
	defer srv.Close()
	var wg sync.WaitGroup
	var shard1 Answer
	var err1 error
	wg.Go(func() {
		shard1, err1 = JoinAnswer(context.Background(), srv.Client(), srv.URL, Ready{RunID: "r1", Shard: 1, Count: 2}, clk)
	})
	var start0 time.Time
	var err0 error
	wg.Go(func() { start0, err0 = c.Arrive(context.Background(), Ready{RunID: "r1", Shard: 0, Count: 2}) })
	waitMissing(t, c, nil)
	if m := c.missing(); m != "the consumer" {
		t.Fatalf("missing %q once both shards arrived, want the consumer", m)
	}
	clk.set(t0.Add(5 * time.Second))
	a, err := JoinAnswer(context.Background(), srv.Client(), srv.URL, Ready{RunID: "r1", Consumer: true}, clk)
	wg.Wait()
	want := t0.Add(5*time.Second + DefaultLead)
	if err != nil || !a.Start.Equal(want) || string(a.Follow) != string(plan) {
		t.Fatalf("consumer: %+v %v, want the start %v and the plan", a, err, want)
	}
	if err0 != nil || err1 != nil || !start0.Equal(want) || !shard1.Start.Equal(want) || shard1.Follow != nil {
		t.Errorf("shards: %v %v / %+v %v, want %v and no plan", start0, err0, shard1, err1, want)
	}

	lone := httptest.NewServer(NewCoordinator("r1", 1, DefaultLead, clk))
	defer lone.Close()
	if _, err := JoinAnswer(context.Background(), lone.Client(), lone.URL, Ready{RunID: "r1", Consumer: true}, clk); err == nil ||
		!strings.Contains(err.Error(), "waits for no consumer") {
		t.Errorf("a consumer of a run without one: %v", err)
	}
}

// TestConsumerNeverArrives: shard 0 gives up on a run whose consumer
// never came, saying so.
func TestConsumerNeverArrives(t *testing.T) {
	t.Parallel()
	c := NewCoordinator("r1", 1, DefaultLead, &fakeClock{now: t0})
	c.WaitForConsumer(nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Agree(ctx, c, "", Ready{RunID: "r1", Shard: 0, Count: 1}, &fakeClock{now: t0})
	if err == nil || !strings.Contains(err.Error(), "the consumer did not arrive") {
		t.Fatalf("%v, want the consumer named", err)
	}
}

// FuzzJoinAnswer has a coordinator answer arbitrary bodies with each
// status a shard may meet: joining returns an answer with a start or an
// error, never panics, and gives up when its context ends.
func FuzzJoinAnswer(f *testing.F) {
	for _, s := range []string{`{"start":"2026-12-02T05:00:03Z","follow":{"plan":{"run_id":"r1"}}}`, `{"error":"no"}`, `{`, `[]`, `{"start":"x"}`, `{"follow":123}`} {
		f.Add(s, 200)
		f.Add(s, 409)
	}
	f.Fuzz(func(t *testing.T, body string, status int) {
		if status < 200 || status > 599 {
			return
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}))
		defer srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		a, err := JoinAnswer(ctx, srv.Client(), srv.URL, Ready{RunID: "r1", Consumer: true}, loadgenClock{})
		if err == nil && a.Start.IsZero() {
			t.Fatalf("%d %q: no error and no start", status, body)
		}
	})
}

// loadgenClock sleeps for real, briefly, as engine.SystemClock does.
type loadgenClock struct{}

func (loadgenClock) Now() time.Time { return time.Now() }
func (loadgenClock) Sleep(d time.Duration, stop <-chan struct{}) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-stop:
		return false
	}
}
