package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen"
)

func TestShardFlags(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	env := func(idx string) func(string) string {
		return func(name string) string {
			if name == jobIndexEnv {
				return idx
			}
			return ""
		}
	}
	tests := []struct {
		name    string
		o       shardOptions
		idx     string
		want    loadgen.Shard
		wantAt  time.Time
		wantErr string
	}{
		{"none", shardOptions{startTolerance: time.Second}, "", loadgen.Shard{}, time.Time{}, ""},
		{"by hand", shardOptions{shard: "2/4", runID: "r42", startAt: "2026-12-01T10:00:05Z", startTolerance: time.Second}, "", loadgen.Shard{Index: 2, Count: 4}, now.Add(5 * time.Second), ""},
		{"auto", shardOptions{shard: "auto/4", runID: "r42", startAt: "2026-12-01T10:00:30Z", startTolerance: time.Second}, "3", loadgen.Shard{Index: 3, Count: 4}, now.Add(30 * time.Second), ""},
		{"relative start of a shard", shardOptions{shard: "1/4", runID: "r42", startAt: "+30s"}, "", loadgen.Shard{}, time.Time{}, "--start-at +30s with --shard: a relative start"},
		{"rendezvous", shardOptions{shard: "auto/4", runID: "r42", rendezvous: "vesload-r42-0.vesload-r42:9465", readyTimeout: time.Minute}, "2", loadgen.Shard{Index: 2, Count: 4}, time.Time{}, ""},
		{"rendezvous without a shard", shardOptions{runID: "r42", rendezvous: "h:9465", readyTimeout: time.Minute}, "", loadgen.Shard{}, time.Time{}, "--rendezvous needs --shard"},
		{"rendezvous and start", shardOptions{shard: "1/2", runID: "r42", rendezvous: "h:9465", startAt: "2026-12-01T10:00:30Z", readyTimeout: time.Minute}, "", loadgen.Shard{}, time.Time{}, "--rendezvous with --start-at"},
		{"rendezvous without a port", shardOptions{shard: "1/2", runID: "r42", rendezvous: "h", readyTimeout: time.Minute}, "", loadgen.Shard{}, time.Time{}, "want HOST:PORT"},
		{"rendezvous bad timeout", shardOptions{shard: "1/2", runID: "r42", rendezvous: "h:1", readyTimeout: 0}, "", loadgen.Shard{}, time.Time{}, "--ready-timeout 0s"},
		{"one shard", shardOptions{shard: "0/1", startTolerance: time.Second}, "", loadgen.Shard{Index: 0, Count: 1}, time.Time{}, ""},
		{"start alone", shardOptions{startAt: "+1m", startTolerance: time.Second}, "", loadgen.Shard{}, now.Add(time.Minute), ""},
		{"index too big", shardOptions{shard: "4/4", runID: "r", startAt: "+1s"}, "", loadgen.Shard{}, time.Time{}, "--shard 4/4: want an index from 0 to 3"},
		{"negative index", shardOptions{shard: "-1/4", runID: "r", startAt: "+1s"}, "", loadgen.Shard{}, time.Time{}, "--shard -1/4"},
		{"no count", shardOptions{shard: "2", runID: "r", startAt: "+1s"}, "", loadgen.Shard{}, time.Time{}, "want I/N or auto/N"},
		{"zero count", shardOptions{shard: "0/0", runID: "r", startAt: "+1s"}, "", loadgen.Shard{}, time.Time{}, "want I/N or auto/N"},
		{"huge count", shardOptions{shard: "0/99999999", runID: "r", startAt: "+1s"}, "", loadgen.Shard{}, time.Time{}, "from 1 to 10000"},
		{"auto without env", shardOptions{shard: "auto/4", runID: "r", startAt: "+1s"}, "", loadgen.Shard{}, time.Time{}, "$JOB_COMPLETION_INDEX is not set"},
		{"auto bad env", shardOptions{shard: "auto/4", runID: "r", startAt: "+1s"}, "x", loadgen.Shard{}, time.Time{}, `$JOB_COMPLETION_INDEX="x"`},
		{"auto env too big", shardOptions{shard: "auto/4", runID: "r", startAt: "+1s"}, "4", loadgen.Shard{}, time.Time{}, "want an index from 0 to 3"},
		{"shards need a run id", shardOptions{shard: "1/2", startAt: "+1s"}, "", loadgen.Shard{}, time.Time{}, "needs --run-id"},
		{"shards need a start", shardOptions{shard: "1/2", runID: "r"}, "", loadgen.Shard{}, time.Time{}, "needs --start-at or --rendezvous"},
		{"bad run id", shardOptions{runID: `a"b`}, "", loadgen.Shard{}, time.Time{}, "--run-id"},
		{"bad start", shardOptions{startAt: "tomorrow"}, "", loadgen.Shard{}, time.Time{}, "--start-at \"tomorrow\""},
		{"bad relative start", shardOptions{startAt: "+-5s"}, "", loadgen.Shard{}, time.Time{}, "--start-at \"+-5s\""},
		{"bad tolerance", shardOptions{startTolerance: -time.Second}, "", loadgen.Shard{}, time.Time{}, "--start-tolerance"},
	}
	for _, tt := range tests {
		sp, err := tt.o.resolve(now, env(tt.idx))
		if tt.wantErr != "" {
			var u usageError
			if err == nil || !errors.As(err, &u) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want a usage error with %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if sp.shard != tt.want {
			t.Errorf("%s: shard %+v, want %+v", tt.name, sp.shard, tt.want)
		}
		if got := sp.start; (got == nil) != tt.wantAt.IsZero() || (got != nil && (!got.At.Equal(tt.wantAt) || got.Tolerance != tt.o.startTolerance)) {
			t.Errorf("%s: start gate %+v, want %v", tt.name, got, tt.wantAt)
		}
	}
}

func FuzzShardFlags(f *testing.F) {
	for _, s := range []string{"2/4", "auto/4", "0/1", "4/4", "/", "a/b", "1/-1", "+30s", "2026-12-01T10:00:00Z", "+", "+1e9h"} {
		f.Add(s, s, "1")
	}
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, shard, start, idx string) {
		o := shardOptions{shard: shard, runID: "r", startAt: start, startTolerance: time.Second}
		sp, err := o.resolve(now, func(string) string { return idx })
		if err != nil {
			var u usageError
			if !errors.As(err, &u) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not one line of bad usage", err)
			}
			return
		}
		if err := sp.shard.Validate(); err != nil {
			t.Fatalf("accepted %q as invalid shard %+v: %v", shard, sp.shard, err)
		}
	})
}
