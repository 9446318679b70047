package merge

import (
	"testing"

	"github.com/vesload/vesload/report/result"
)

// encoded returns an encoded histogram of n values v, 2v, … (µs).
func encoded(t *testing.T, n, v int64) string {
	t.Helper()
	h := result.NewHistogram()
	for i := int64(1); i <= n; i++ {
		if err := h.RecordValue(i * v); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := result.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

func TestMergeStepsAndKinds(t *testing.T) {
	t.Parallel()
	a, b := shard(t, "r", 0, 2), shard(t, "r", 1, 2)
	for i, r := range []*result.Result{a, b} {
		scale := int64(i + 1)
		r.Steps = []result.Step{
			{Concurrency: 5, StartS: 0, DurationS: 10, Sent: 100, OK: 99, Errors: 1, Histogram: encoded(t, 100, 1000*scale)},
			{Concurrency: 50, StartS: 10, DurationS: 10, Sent: 400, OK: 400, Histogram: encoded(t, 400, 2000*scale)},
		}
		r.ByRequest = []result.RequestStats{
			{Name: "fault", Weight: 3, Requests: result.Requests{Sent: 30, OK: 30}, Histogram: encoded(t, 30, 500)},
			{Name: "heartbeat", Weight: 1, Requests: result.Requests{Sent: 10, OK: 9, Errors: 1}, Errors: map[string]int64{"http_503": 1}, Histogram: encoded(t, 10, 700)},
		}
	}
	m, err := Shards([]*result.Result{a, b}, []string{"a", "b"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Steps) != 2 {
		t.Fatalf("steps %+v", m.Steps)
	}
	s0, s1 := m.Steps[0], m.Steps[1]
	if s0.Concurrency != 10 || s0.Sent != 200 || s0.Errors != 2 || s0.RPS != 20 || s0.Latency.Count != 200 ||
		s1.Concurrency != 100 || s1.Sent != 800 || s1.Latency.Count != 800 {
		t.Errorf("merged steps %+v", m.Steps)
	}
	// Step 0 holds 1…100 ms and 2…200 ms: the merged max is b's.
	if s0.Latency.Max < 199 || s0.Latency.Max > 201 || s0.Latency.Min > 1.01 {
		t.Errorf("step 0 latency %+v", s0.Latency)
	}
	k := m.ByRequest
	if len(k) != 2 || k[0].Name != "fault" || k[0].Requests.Sent != 60 || k[0].Latency.Count != 60 ||
		k[1].Errors["http_503"] != 2 || k[1].Requests.Errors != 2 || k[1].Latency.Count != 20 {
		t.Errorf("merged kinds %+v", k)
	}
	// Inputs whose steps differ merge without that part, not a guess.
	b.Steps = b.Steps[:1]
	b.ByRequest[0].Histogram = ""
	m, err = Shards([]*result.Result{a, b}, []string{"a", "b"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Steps != nil || m.ByRequest != nil {
		t.Errorf("steps %+v kinds %+v, want none from unlike inputs", m.Steps, m.ByRequest)
	}
}
