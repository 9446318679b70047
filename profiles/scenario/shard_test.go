package scenario

import (
	"errors"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/profiles"
)

// TestPlanShard: a shard of an open schedule gets its share of the
// requests and of the rate, a shard of a ramp its part of each step, and
// a shard that would send nothing is refused.
func TestPlanShard(t *testing.T) {
	t.Parallel()
	const url = "http://127.0.0.1:8080/eventListener/v7"
	open := func(rps float64, d time.Duration) *profiles.Profile {
		p := commandLine(url)
		p.Load = profiles.Shape{RPS: rps, Duration: d}
		return p
	}
	gate := &engine.StartGate{At: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), Tolerance: time.Second}
	tests := []struct {
		name    string
		profile *profiles.Profile
		shard   engine.Shard
		total   int64   // the shard's requests (open model)
		rps     float64 // the shard's rate in the result's configuration
		wantErr error
	}{
		{"whole", open(10, 10*time.Second), engine.Shard{}, 100, 10, nil},
		{"shard 1 of 3", open(10, 10*time.Second), engine.Shard{Index: 1, Count: 3}, 33, 3.3, nil},
		{"shard 0 of 3", open(10, 10*time.Second), engine.Shard{Index: 0, Count: 3}, 34, 3.4, nil},
		{"more shards than requests", open(1, 2*time.Second), engine.Shard{Index: 3, Count: 4}, 0, 0, ErrEmptyShard},
		{"a ramp", builtin(t, "ingress-concurrency-ramp", url), engine.Shard{Index: 1, Count: 2}, -1, 0, nil},
	}
	for _, tt := range tests {
		pl, err := Compile(tt.profile, Options{Version: "t", NoPreflight: true, RunID: "r"})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		err = pl.Shard(tt.shard, gate)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("%s: %v, want %v", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if pl.Config.Start != gate || engine.ShardOf(pl.Config.Load) != tt.shard {
			t.Errorf("%s: start %v, shard %+v; want the gate and %+v", tt.name, pl.Config.Start, engine.ShardOf(pl.Config.Load), tt.shard)
		}
		if s, ok := pl.Config.Load.(*engine.Schedule); ok && (s.Total() != tt.total || !near(pl.RunConfig.RPS, tt.rps)) {
			t.Errorf("%s: %d requests at %g/s, want %d at %g/s", tt.name, s.Total(), pl.RunConfig.RPS, tt.total, tt.rps)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
