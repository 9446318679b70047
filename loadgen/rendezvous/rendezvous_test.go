package rendezvous

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vesload/vesload/internal/clock"
)

// inMemory is an HTTP client that hands each request to h in the
// caller's goroutine, as a network would, but without one: inside a
// testing/synctest bubble a goroutine waiting on a socket is not idle,
// and the bubble's time would never move. A nil h is a coordinator that
// cannot be reached.
func inMemory(h http.Handler) *http.Client {
	return &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		if h == nil {
			return nil, errors.New("connect: connection refused")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Result(), nil
	})}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// coordURL is the coordinator's address for the in-memory client: any will do.
const coordURL = "http://coordinator"

// TestAllShardsGetOneStart has four shards arrive at different times
// (of the coordinator's clock, virtual in a synctest bubble): all get
// the same instant, Lead after the last arrival, and none before the last
// has arrived.
func TestAllShardsGetOneStart(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		c := NewCoordinator("r1", 4, DefaultLead, clock.Runtime{})
		client := inMemory(c)
		starts := make([]time.Time, 4)
		errs := make([]error, 4)
		var wg sync.WaitGroup
		for i := range 3 {
			advanceTo(t0.Add(time.Duration(i) * 3 * time.Second))
			wg.Go(func() {
				starts[i], errs[i] = Join(context.Background(), client, coordURL, Ready{RunID: "r1", Shard: i, Count: 4}, clock.Runtime{})
			})
		}
		synctest.Wait()
		if m := c.Missing(); !slices.Equal(m, []int{3}) {
			t.Fatalf("missing %v once three arrived, want [3]", m)
		}
		for i := range 3 {
			if !starts[i].IsZero() || errs[i] != nil {
				t.Fatalf("shard %d got %v %v before the last shard arrived", i, starts[i], errs[i])
			}
		}
		advanceTo(t0.Add(9 * time.Second))
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
		again, err := Join(context.Background(), client, coordURL, Ready{RunID: "r1", Shard: 1, Count: 4}, clock.Runtime{})
		if err != nil || !again.Equal(want) {
			t.Errorf("asked again: %v %v, want %v", again, err, want)
		}
	})
}

// advanceTo moves a synctest bubble's time on to at, once every other
// goroutine in it waits.
func advanceTo(at time.Time) {
	clock.Sleep(context.Background(), clock.Runtime{}, time.Until(at), nil)
}

// TestShardNeverArrives: the coordinator gives up at its deadline and
// every waiting shard learns it at once, rather than at its own deadline.
func TestShardNeverArrives(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := NewCoordinator("r1", 3, DefaultLead, clock.Runtime{})
		var err1 error
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, err1 = Join(context.Background(), inMemory(c), coordURL, Ready{RunID: "r1", Shard: 1, Count: 3}, clock.Runtime{})
		}()
		synctest.Wait()
		if m := c.Missing(); !slices.Equal(m, []int{0, 2}) {
			t.Fatalf("missing %v, want [0 2]", m)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // shard 0's ready timeout
		if _, err := c.Arrive(ctx, Ready{RunID: "r1", Shard: 0, Count: 3}); err == nil {
			t.Fatal("shard 0 got a start without shard 2")
		}
		failed := time.Now()
		c.Fail(errors.New("shards [2] not ready within 5m0s"))
		<-done
		if err1 == nil || !strings.Contains(err1.Error(), "shards [2] not ready") {
			t.Fatalf("shard 1: %v, want the coordinator's reason", err1)
		}
		if d := time.Since(failed); d != 0 {
			t.Errorf("shard 1 learnt of the failure %v after it, want at once", d)
		}
	})
}

// TestJoinRetriesUntilReachable: a coordinator that is not up yet is asked
// again, Retry apart; one that never comes up ends the wait with the
// context.
func TestJoinRetriesUntilReachable(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		c := NewCoordinator("r1", 1, time.Second, clock.Runtime{})
		var calls atomic.Int64
		client := inMemory(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) <= 3 { // not ready: a proxy's or a half-started server's answer
				http.Error(w, "starting", http.StatusBadGateway)
				return
			}
			c.ServeHTTP(w, r)
		}))
		start, err := Join(context.Background(), client, coordURL, Ready{RunID: "r1", Shard: 0, Count: 1}, clock.Runtime{})
		want := t0.Add(3*Retry + time.Second) // three waits, then the lead
		if err != nil || !start.Equal(want) || calls.Load() != 4 {
			t.Fatalf("start %v err %v after %d calls, want %v after 4", start, err, calls.Load(), want)
		}

		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		began := time.Now()
		if _, err := Join(ctx, inMemory(nil), coordURL, Ready{RunID: "r1", Count: 1}, clock.Runtime{}); err == nil || !strings.Contains(err.Error(), "no start from") {
			t.Fatalf("unreachable coordinator: %v", err)
		}
		if d := time.Since(began); d != time.Minute {
			t.Errorf("an unreachable coordinator was given up after %v, want the context's minute", d)
		}
	})
}

// TestRefusals: a shard of another run or another count is refused at
// once (409), without waiting.
func TestRefusals(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := NewCoordinator("r1", 2, time.Second, clock.Runtime{})
		client := inMemory(c)
		began := time.Now()
		for _, tt := range []struct {
			r    Ready
			want string
		}{
			{Ready{RunID: "r2", Shard: 1, Count: 2}, `of run "r2"`},
			{Ready{RunID: "r1", Shard: 1, Count: 3}, "counts 3 shards"},
			{Ready{RunID: "r1", Shard: 2, Count: 2}, "want 0 to 1"},
		} {
			_, err := Join(context.Background(), client, coordURL, tt.r, clock.Runtime{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%+v: %v, want %q", tt.r, err, tt.want)
			}
		}
		if d := time.Since(began); d != 0 {
			t.Errorf("the refusals took %v: one was asked again", d)
		}
		resp, err := client.Post(coordURL+Path, "application/json", strings.NewReader("{"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("a broken signal: %s", resp.Status)
		}
	})
}

// FuzzServeReady feeds the coordinator arbitrary bodies: it answers
// without panicking, and never with a start for a run it does not hold.
func FuzzServeReady(f *testing.F) {
	for _, s := range []string{`{"run_id":"r1","shard":0,"count":1}`, `{"run_id":"x"}`, `{`, `[]`, `{"shard":-1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		c := NewCoordinator("r1", 1, time.Second, clock.System{})
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
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		c := NewCoordinator("r1", 2, DefaultLead, clock.Runtime{})
		plan := json.RawMessage(`{"plan":{"run_id":"r1","events":40}}`)
		c.WaitForConsumer(plan)
		client := inMemory(c)
		var wg sync.WaitGroup
		var shard1 Answer
		var err1 error
		wg.Go(func() {
			shard1, err1 = JoinAnswer(context.Background(), client, coordURL, Ready{RunID: "r1", Shard: 1, Count: 2}, clock.Runtime{})
		})
		var start0 time.Time
		var err0 error
		wg.Go(func() { start0, err0 = c.Arrive(context.Background(), Ready{RunID: "r1", Shard: 0, Count: 2}) })
		synctest.Wait()
		if m := c.missing(); len(c.Missing()) != 0 || m != "the consumer" {
			t.Fatalf("missing %v, %q once both shards arrived, want the consumer", c.Missing(), m)
		}
		advanceTo(t0.Add(5 * time.Second))
		a, err := JoinAnswer(context.Background(), client, coordURL, Ready{RunID: "r1", Consumer: true}, clock.Runtime{})
		wg.Wait()
		want := t0.Add(5*time.Second + DefaultLead)
		if err != nil || !a.Start.Equal(want) || string(a.Follow) != string(plan) {
			t.Fatalf("consumer: %+v %v, want the start %v and the plan", a, err, want)
		}
		if err0 != nil || err1 != nil || !start0.Equal(want) || !shard1.Start.Equal(want) || shard1.Follow != nil {
			t.Errorf("shards: %v %v / %+v %v, want %v and no plan", start0, err0, shard1, err1, want)
		}

		lone := inMemory(NewCoordinator("r1", 1, DefaultLead, clock.Runtime{}))
		if _, err := JoinAnswer(context.Background(), lone, coordURL, Ready{RunID: "r1", Consumer: true}, clock.Runtime{}); err == nil ||
			!strings.Contains(err.Error(), "waits for no consumer") {
			t.Errorf("a consumer of a run without one: %v", err)
		}
	})
}

// TestConsumerNeverArrives: shard 0 gives up on a run whose consumer
// never came, saying so.
func TestConsumerNeverArrives(t *testing.T) {
	t.Parallel()
	c := NewCoordinator("r1", 1, DefaultLead, clock.System{})
	c.WaitForConsumer(nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Agree(ctx, c, "", Ready{RunID: "r1", Shard: 0, Count: 1}, clock.System{})
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
		a, err := JoinAnswer(ctx, srv.Client(), srv.URL, Ready{RunID: "r1", Consumer: true}, clock.System{})
		if err == nil && a.Start.IsZero() {
			t.Fatalf("%d %q: no error and no start", status, body)
		}
	})
}
