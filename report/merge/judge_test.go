package merge

import (
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/verdict"
)

func TestFailedGates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ts   []result.Threshold
		want string
	}{
		{"none failed", []result.Threshold{{Expr: "p99<500ms", Pass: true}}, ""},
		{"a value with its unit", []result.Threshold{{Expr: "p99<500ms", Value: 812, Unit: "ms"}, {Expr: "rps>1", Pass: true}}, "p99<500ms (812 ms)"},
		{"a value without a unit", []result.Threshold{{Expr: "ok>0", Value: 0}}, "ok>0 (0)"},
		{"a reason", []result.Threshold{{Expr: "ok>0", Value: 0}, {Expr: "cpu<80%", Reason: "not measured"}}, "ok>0 (0), cpu<80% (not measured)"},
	}
	for _, tt := range tests {
		if got := FailedGates(tt.ts); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestJudgeMerge checks the verdict of a merge and the lines that
// explain it: partial, interrupted and aborted shards, failed gates.
func TestJudgeMerge(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		edit      func(rs []*result.Result)
		opts      Options
		gates     []string
		want      verdict.Verdict
		wantLines []string
	}{
		{"passes", func([]*result.Result) {}, Options{}, nil, verdict.Passed, nil},
		{"a gate fails", func([]*result.Result) {}, Options{}, []string{"p99<0.001ms"}, verdict.Failed,
			[]string{"failed on the merged result: p99<0.001ms ("}},
		{"a shard interrupted", func(rs []*result.Result) { rs[1].Interrupted = true }, Options{}, nil, verdict.Interrupted,
			[]string{"b was interrupted: the merged run is incomplete"}},
		{"a shard aborted", func(rs []*result.Result) { rs[0].AbortedBy = "error_rate<5%" }, Options{}, nil, verdict.Failed,
			[]string{"a was stopped early by --abort-on-fail: error_rate<5%"}},
		{"partial", func(rs []*result.Result) { rs[1].Shard.Index = 2 }, Options{AllowPartial: true}, nil, verdict.Passed,
			[]string{"partial run: shards [1] of 3 are missing (--allow-partial)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs := []*result.Result{shard(t, "r1", 0, 3), shard(t, "r1", 1, 3)}
			if tt.name != "partial" {
				rs = append(rs, shard(t, "r1", 2, 3))
			}
			for _, r := range rs {
				r.Config.Thresholds = nil // the merge's gates only
			}
			tt.edit(rs)
			names := []string{"a", "b", "c"}[:len(rs)]
			m, err := Shards(rs, names, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			v, lines := Judge(m, rs, names, tt.gates, false)
			if v != tt.want || len(lines) < len(tt.wantLines) {
				t.Fatalf("JudgeMerge = %v, %q; want %v, %q", v, lines, tt.want, tt.wantLines)
			}
			for i, w := range tt.wantLines {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("line %d %q, want it to start %q", i, lines[i], w)
				}
			}
		})
	}
}
