package dashboard

import (
	"slices"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/result"
)

type countCheckpoints struct {
	engine.NopObserver
	at []int
}

func (c *countCheckpoints) Checkpoint(r *result.Result) {
	c.at = append(c.at, int(r.Ended.Sub(r.Started).Round(time.Second)/time.Second))
}

// With the dashboard's snapshot every second, the checkpoint file still
// gets one per --checkpoint period, and a snapshot the engine skipped
// delays it to the next second only.
func TestEveryCheckpointKeepsThePeriod(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		every time.Duration
		secs  []int
		want  []int
	}{
		{"every 3 s", 3 * time.Second, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []int{3, 6, 9}},
		{"a skipped snapshot", 3 * time.Second, []int{1, 2, 4, 5, 7, 8, 9}, []int{4, 7, 9}},
		{"every second", time.Second, []int{1, 2, 3}, []int{1, 2, 3}},
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range tests {
		var got countCheckpoints
		e := &EveryCheckpoint{Observer: &got, Every: tc.every}
		for _, s := range tc.secs {
			e.Checkpoint(&result.Result{Started: start, Ended: start.Add(time.Duration(s)*time.Second + 3*time.Millisecond)})
		}
		if !slices.Equal(got.at, tc.want) {
			t.Errorf("%s: passed on at %v, want %v", tc.name, got.at, tc.want)
		}
	}
}

// The page sees each snapshot before the checkpoint file, which keeps its
// period; without a checkpoint file the page comes last.
func TestAttach(t *testing.T) {
	t.Parallel()
	srv := &Server{}
	first, ckpt, after := &countCheckpoints{}, &countCheckpoints{}, &countCheckpoints{}
	cfg := engine.Config{Observers: []engine.Observer{first, ckpt, after}, CheckpointEvery: time.Minute}
	srv.Attach(&cfg, ckpt)
	if len(cfg.Observers) != 4 || cfg.Observers[0] != engine.Observer(first) || cfg.Observers[1] != engine.Observer(srv) ||
		cfg.Observers[3] != engine.Observer(after) || cfg.CheckpointEvery != time.Second {
		t.Fatalf("observers %v every %v", cfg.Observers, cfg.CheckpointEvery)
	}
	if e, ok := cfg.Observers[2].(*EveryCheckpoint); !ok || e.Observer != engine.Observer(ckpt) || e.Every != time.Minute {
		t.Errorf("checkpoint observer %#v", cfg.Observers[2])
	}
	cfg = engine.Config{Observers: []engine.Observer{first}}
	srv.Attach(&cfg, nil)
	if len(cfg.Observers) != 2 || cfg.Observers[1] != engine.Observer(srv) {
		t.Errorf("without a checkpoint file: %v", cfg.Observers)
	}
}
