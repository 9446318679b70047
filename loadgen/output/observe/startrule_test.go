package observe

import (
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// startSecond is a Tally of one second: ok successes and fails[class] failures
// (pool_exhausted never sent).
func startSecond(ok int64, fails map[string]int64, ids map[string]int64) *result.Tally {
	t := result.NewTally()
	t.OK, t.Sent = ok, ok
	for c, n := range fails {
		t.Classes[c] = n
		t.Errors += n
		if c != result.ClassPoolExhausted {
			t.Sent += n
		}
	}
	for id, n := range ids {
		t.MessageIDs[id] = n
	}
	t.Scheduled = t.Sent + fails[result.ClassPoolExhausted]
	return &t
}

func TestStartGuard(t *testing.T) {
	t.Parallel()
	f405 := map[string]int64{"http_405": 10}
	tests := []struct {
		name    string
		seconds []*result.Tally
		stopAt  int    // the second (1-based) after which it stops; 0: never
		why     string // part of the note
	}{
		{"every request 405 for 5 s", []*result.Tally{startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil)},
			5, "stopping: every one of the first 50 requests failed with http_405: cause of http_405"},
		{"401 with the collector's messageId", []*result.Tally{startSecond(0, map[string]int64{"http_401": 5}, map[string]int64{"POL2000": 5}), startSecond(0, map[string]int64{"http_401": 5}, map[string]int64{"POL2000": 5}),
			startSecond(0, map[string]int64{"http_401": 5}, map[string]int64{"POL2000": 5}), startSecond(0, map[string]int64{"http_401": 5}, map[string]int64{"POL2000": 5}), startSecond(0, map[string]int64{"http_401": 5}, map[string]int64{"POL2000": 5})},
			5, "failed with http_401 (POL2000): cause of http_401 POL2000"},
		{"one success", []*result.Tally{startSecond(0, f405, nil), startSecond(1, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil)}, 0, ""},
		{"two classes", []*result.Tally{startSecond(0, f405, nil), startSecond(0, map[string]int64{"timeout": 10}, nil), startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil)}, 0, ""},
		{"fewer than 20 by 5 s: waits for 20", []*result.Tally{startSecond(0, map[string]int64{"http_405": 3}, nil), startSecond(0, map[string]int64{"http_405": 3}, nil), startSecond(0, map[string]int64{"http_405": 3}, nil),
			startSecond(0, map[string]int64{"http_405": 3}, nil), startSecond(0, map[string]int64{"http_405": 3}, nil), startSecond(0, map[string]int64{"http_405": 3}, nil), startSecond(0, map[string]int64{"http_405": 3}, nil)},
			7, "the first 21 requests"},
		{"pool_exhausted is not the target's answer", []*result.Tally{startSecond(0, map[string]int64{"tls": 5, result.ClassPoolExhausted: 5}, nil), startSecond(0, map[string]int64{"tls": 5}, nil),
			startSecond(0, map[string]int64{"tls": 5}, nil), startSecond(0, map[string]int64{"tls": 5}, nil), startSecond(0, map[string]int64{"tls": 5}, nil)}, 5, "the first 25 requests failed with tls"},
		{"a failure after the first 5 s is not its business", []*result.Tally{startSecond(5, nil, nil), startSecond(5, nil, nil), startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil), startSecond(0, f405, nil)}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stops, notes := 0, []string{}
			explain := func(class, id string) string { return strings.TrimSpace("cause of " + class + " " + id) }
			g := NewStartGuard(StartWindow, StartMin, explain, func() { stops++ }, func(s string) { notes = append(notes, s) })
			stoppedAt := 0
			for i, s := range tt.seconds {
				g.Timeline(result.Second{T: int64(i)}, s)
				if stops > 0 && stoppedAt == 0 {
					stoppedAt = i + 1
				}
			}
			if stoppedAt != tt.stopAt || stops > 1 {
				t.Fatalf("stopped after second %d (%d times), want %d once; notes %q", stoppedAt, stops, tt.stopAt, notes)
			}
			res := &result.Result{Interrupted: true}
			res.Thresholds = g.Complete(res, false)
			if tt.stopAt == 0 {
				if len(notes) != 0 || len(res.Thresholds) != 0 || !res.Interrupted {
					t.Errorf("notes %q, thresholds %+v for a run it did not stop", notes, res.Thresholds)
				}
				return
			}
			if len(notes) != 1 || !strings.Contains(notes[0], tt.why) {
				t.Errorf("notes %q, want one with %q", notes, tt.why)
			}
			if len(res.Thresholds) != 1 || res.Thresholds[0].Pass || res.Thresholds[0].Kind != result.KindRule || res.Interrupted || len(res.Warnings) != 1 {
				t.Errorf("thresholds %+v interrupted %v warnings %q: want one failed rule, not interrupted, one warning", res.Thresholds, res.Interrupted, res.Warnings)
			}
		})
	}
	var g *StartGuard
	g.Complete(&result.Result{}, false) // a nil guard does nothing
}
