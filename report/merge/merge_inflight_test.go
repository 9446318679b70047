package merge

import (
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Merging checkpoints of parallel generators keeps their requests in
// flight, so the merged sent = ok + errors + in_flight still holds.
func TestMergeKeepsInFlight(t *testing.T) {
	t.Parallel()
	a := generator(t, 0, 1)
	b := generator(t, 2*time.Second, 1)
	a.Requests.InFlight, b.Requests.InFlight = 3, 4
	m, err := Results([]*result.Result{a, b}, []string{"g1.json", "g2.json"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Requests.InFlight != 7 {
		t.Errorf("merged in flight %d, want 7", m.Requests.InFlight)
	}
}
