package engine

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport/rest"
)

// It runs alone (not in parallel): it measures service times.
func TestClosedModelSteps(t *testing.T) {
	var inFlight, maxInFlight atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n := inFlight.Add(1)
		for m := maxInFlight.Load(); n > m && !maxInFlight.CompareAndSwap(m, n); m = maxInFlight.Load() {
		}
		time.Sleep(50 * time.Millisecond)
		inFlight.Add(-1)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	cfg := restRun{Config: Config{Body: seqBody{}, Pool: 8, Timeout: 2 * time.Second,
		Load: &Closed{Concurrency: []int{2, 6}, Step: 600 * time.Millisecond}},
		REST: rest.Options{URL: srv.URL, KeepAlive: true}}
	e, err := newREST(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if len(res.Steps) != 2 {
		t.Fatalf("steps %+v", res.Steps)
	}
	low, high := res.Steps[0], res.Steps[1]
	// 2 slots of 50 ms serve at most ~24 requests in 600 ms, 6 slots ~72 (50 ms
	// rather than less, so that a loaded machine's scheduling noise stays small
	// beside the service time).
	if low.Sent < 10 || low.Sent > 70 || high.Sent < 2*low.Sent || low.Concurrency != 2 || high.Concurrency != 6 {
		t.Fatalf("steps: %+v", res.Steps)
	}
	if maxInFlight.Load() > 6 {
		t.Fatalf("the server saw %d requests at once, above the top concurrency 6", maxInFlight.Load())
	}
	if res.Requests.Scheduled != res.Requests.Sent || res.Errors["pool_exhausted"] != 0 {
		t.Fatalf("requests %+v errors %v", res.Requests, res.Errors)
	}
}

func TestClosedModelRejects(t *testing.T) {
	t.Parallel()
	for _, c := range []*Closed{{}, {Concurrency: []int{0}, Step: time.Second}, {Concurrency: []int{9}, Step: time.Second}, {Concurrency: []int{1}}} {
		cfg := restRun{Config: Config{Body: seqBody{}, Pool: 8, Timeout: time.Second, Load: c},
			REST: rest.Options{URL: "http://127.0.0.1:1"}}
		if _, err := newREST(cfg); err == nil {
			t.Errorf("closed %+v accepted", c)
		}
	}
}
