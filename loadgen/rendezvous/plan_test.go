package rendezvous

import (
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
)

// TestResolve checks the shard options, every error naming its option.
func TestResolve(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	env := func(idx string) func(string) string {
		return func(name string) string {
			if name == engine.JobIndexEnv {
				return idx
			}
			return ""
		}
	}
	tests := []struct {
		name    string
		o       Options
		idx     string
		want    engine.Shard
		wantAt  time.Time
		wantErr string
	}{
		{"none", Options{StartTolerance: time.Second}, "", engine.Shard{}, time.Time{}, ""},
		{"by hand", Options{Shard: "2/4", RunID: "r42", StartAt: "2026-12-01T10:00:05Z", StartTolerance: time.Second}, "", engine.Shard{Index: 2, Count: 4}, now.Add(5 * time.Second), ""},
		{"auto", Options{Shard: "auto/4", RunID: "r42", StartAt: "2026-12-01T10:00:30Z", StartTolerance: time.Second}, "3", engine.Shard{Index: 3, Count: 4}, now.Add(30 * time.Second), ""},
		{"relative start of a shard", Options{Shard: "1/4", RunID: "r42", StartAt: "+30s"}, "", engine.Shard{}, time.Time{}, "--start-at +30s with --shard: a relative start"},
		{"rendezvous", Options{Shard: "auto/4", RunID: "r42", Addr: "vesload-r42-0.vesload-r42:9465", ReadyTimeout: time.Minute}, "2", engine.Shard{Index: 2, Count: 4}, time.Time{}, ""},
		{"rendezvous without a shard", Options{RunID: "r42", Addr: "h:9465", ReadyTimeout: time.Minute}, "", engine.Shard{}, time.Time{}, "--rendezvous needs --shard"},
		{"rendezvous and start", Options{Shard: "1/2", RunID: "r42", Addr: "h:9465", StartAt: "2026-12-01T10:00:30Z", ReadyTimeout: time.Minute}, "", engine.Shard{}, time.Time{}, "--rendezvous with --start-at"},
		{"rendezvous without a port", Options{Shard: "1/2", RunID: "r42", Addr: "h", ReadyTimeout: time.Minute}, "", engine.Shard{}, time.Time{}, "want HOST:PORT"},
		{"rendezvous bad timeout", Options{Shard: "1/2", RunID: "r42", Addr: "h:1", ReadyTimeout: 0}, "", engine.Shard{}, time.Time{}, "--ready-timeout 0s"},
		{"consumer", Options{Shard: "auto/4", RunID: "r42", Addr: "h:9465", ReadyTimeout: time.Minute, Consumer: true}, "0", engine.Shard{Index: 0, Count: 4}, time.Time{}, ""},
		{"consumer without shards", Options{Addr: "", Consumer: true}, "", engine.Shard{}, time.Time{}, "--with-consumer needs --shard"},
		{"one shard", Options{Shard: "0/1", StartTolerance: time.Second}, "", engine.Shard{Index: 0, Count: 1}, time.Time{}, ""},
		{"one shard meets its consumer", Options{Shard: "auto/1", RunID: "r", Addr: "h:9465", ReadyTimeout: time.Minute, Consumer: true}, "0", engine.Shard{Index: 0, Count: 1}, time.Time{}, ""},
		{"start alone", Options{StartAt: "+1m", StartTolerance: time.Second}, "", engine.Shard{}, now.Add(time.Minute), ""},
		{"index too big", Options{Shard: "4/4", RunID: "r", StartAt: "+1s"}, "", engine.Shard{}, time.Time{}, "--shard 4/4: want an index from 0 to 3"},
		{"negative index", Options{Shard: "-1/4", RunID: "r", StartAt: "+1s"}, "", engine.Shard{}, time.Time{}, "--shard -1/4"},
		{"no count", Options{Shard: "2", RunID: "r", StartAt: "+1s"}, "", engine.Shard{}, time.Time{}, "want I/N or auto/N"},
		{"zero count", Options{Shard: "0/0", RunID: "r", StartAt: "+1s"}, "", engine.Shard{}, time.Time{}, "want I/N or auto/N"},
		{"huge count", Options{Shard: "0/99999999", RunID: "r", StartAt: "+1s"}, "", engine.Shard{}, time.Time{}, "from 1 to 10000"},
		{"auto without env", Options{Shard: "auto/4", RunID: "r", StartAt: "+1s"}, "", engine.Shard{}, time.Time{}, "$JOB_COMPLETION_INDEX is not set"},
		{"auto bad env", Options{Shard: "auto/4", RunID: "r", StartAt: "+1s"}, "x", engine.Shard{}, time.Time{}, `$JOB_COMPLETION_INDEX="x"`},
		{"auto env too big", Options{Shard: "auto/4", RunID: "r", StartAt: "+1s"}, "4", engine.Shard{}, time.Time{}, "want an index from 0 to 3"},
		{"shards need a run id", Options{Shard: "1/2", StartAt: "+1s"}, "", engine.Shard{}, time.Time{}, "needs --run-id"},
		{"shards need a start", Options{Shard: "1/2", RunID: "r"}, "", engine.Shard{}, time.Time{}, "needs --start-at or --rendezvous"},
		{"bad run id", Options{RunID: `a"b`}, "", engine.Shard{}, time.Time{}, "--run-id"},
		{"bad start", Options{StartAt: "tomorrow"}, "", engine.Shard{}, time.Time{}, "--start-at \"tomorrow\""},
		{"bad relative start", Options{StartAt: "+-5s"}, "", engine.Shard{}, time.Time{}, "--start-at \"+-5s\""},
		{"bad tolerance", Options{StartTolerance: -time.Second}, "", engine.Shard{}, time.Time{}, "--start-tolerance"},
	}
	for _, tt := range tests {
		sp, err := tt.o.Resolve(now, env(tt.idx))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if sp.Shard != tt.want {
			t.Errorf("%s: shard %+v, want %+v", tt.name, sp.Shard, tt.want)
		}
		if got := sp.Start; (got == nil) != tt.wantAt.IsZero() || (got != nil && (!got.At.Equal(tt.wantAt) || got.Tolerance != tt.o.StartTolerance)) {
			t.Errorf("%s: start gate %+v, want %v", tt.name, got, tt.wantAt)
		}
	}
}

func FuzzResolve(f *testing.F) {
	for _, s := range []string{"2/4", "auto/4", "0/1", "4/4", "/", "a/b", "1/-1", "+30s", "2026-12-01T10:00:00Z", "+", "+1e9h"} {
		f.Add(s, s, "1")
	}
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, shard, start, idx string) {
		o := Options{Shard: shard, RunID: "r", StartAt: start, StartTolerance: time.Second}
		sp, err := o.Resolve(now, func(string) string { return idx })
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not one line", err)
			}
			return
		}
		if err := sp.Shard.Validate(); err != nil {
			t.Fatalf("accepted %q as invalid shard %+v: %v", shard, sp.Shard, err)
		}
	})
}
