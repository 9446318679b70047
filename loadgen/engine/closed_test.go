package engine

import (
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport/rest"
)

// The closed model keeps each step's concurrency in flight, in a
// synctest bubble against a target answering in 50 ms of its virtual
// time: 2 slots serve 24 requests in 600 ms, 6 slots 72, exactly.
func TestClosedModelSteps(t *testing.T) {
	t.Parallel()
	tr := &virtualTarget{service: 50 * time.Millisecond}
	res, _ := runVirtual(t, Config{Pool: 8, Timeout: 2 * time.Second,
		Load: &Closed{Concurrency: []int{2, 6}, Step: 600 * time.Millisecond}}, tr)
	if len(res.Steps) != 2 {
		t.Fatalf("steps %+v", res.Steps)
	}
	low, high := res.Steps[0], res.Steps[1]
	// The last request of a step may still be answered in the next.
	if low.Sent < 23 || low.Sent > 25 || high.Sent < 71 || high.Sent > 73 || low.Concurrency != 2 || high.Concurrency != 6 {
		t.Fatalf("steps: %+v, want about 24 and 72 sent", res.Steps)
	}
	if m := tr.maxInFlight.Load(); m != 6 {
		t.Fatalf("the target saw at most %d requests at once, want the top concurrency 6", m)
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
