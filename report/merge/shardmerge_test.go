package merge

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/summary"
	"github.com/vesload/vesload/report/verdict"
)

func TestMergeShards(t *testing.T) {
	t.Parallel()
	var rs []*result.Result
	var names []string
	for _, i := range []int{2, 0, 3, 1} { // in any order
		rs = append(rs, shard(t, "r42", i, 4))
		rs[len(rs)-1].Config.Labels = map[string]string{"build": "1.9", "commit": "abc"}
		names = append(names, fmt.Sprintf("s%d.json", i))
	}
	m, err := Shards(rs, names, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Merged == nil || m.Merged.Count != 4 || fmt.Sprint(m.Merged.Shards) != "[0 1 2 3]" || m.Merged.Partial || m.Merged.Inputs != 4 {
		t.Fatalf("merged info %+v", m.Merged)
	}
	if m.Merged.StartOffsetMaxMs != 0.3 {
		t.Errorf("largest start offset %v, want 0.3 ms", m.Merged.StartOffsetMaxMs)
	}
	one := rs[0]
	if m.Requests.Scheduled != 4*one.Requests.Scheduled || m.Latency.Count != 4000 || m.Shard != nil {
		t.Errorf("merged requests %+v latency count %d shard %+v", m.Requests, m.Latency.Count, m.Shard)
	}
	if m.Config.RunID != "r42" || m.Config.Digest != "sha256:abc" || m.Config.LabelText() != "build=1.9, commit=abc" {
		t.Errorf("config %+v lost the run's identity", m.Config)
	}
}

func TestMergeShardsRefuses(t *testing.T) {
	t.Parallel()
	other := shard(t, "r43", 1, 4)
	otherScenario := shard(t, "r42", 1, 4)
	otherScenario.Config.Digest = "sha256:def"
	otherBuild := shard(t, "r42", 1, 2)
	otherBuild.Config.Labels = map[string]string{"build": "1.10"}
	threeShards := shard(t, "r42", 1, 3)
	plain := generator(t, 0, 1)
	// Shards given each their own relative --start-at: 300 ms apart.
	late := shard(t, "r42", 1, 2)
	late.Shard.StartAt = late.Shard.StartAt.Add(300 * time.Millisecond)
	strict := shard(t, "r42", 0, 2)
	strict.Shard.StartToleranceMs = 100
	tests := []struct {
		name    string
		rs      []*result.Result
		names   []string
		partial bool
		want    string
	}{
		{"different runs", []*result.Result{shard(t, "r42", 0, 4), shard(t, "r42", 2, 4), other, shard(t, "r42", 3, 4)},
			[]string{"a", "b", "c", "d"}, false, "merge: different runs: a, b, d are run r42; c is run r43"},
		{"different scenarios", []*result.Result{shard(t, "r42", 0, 2), otherScenario},
			[]string{"a", "b"}, false, "merge: different scenarios: a is scenario sha256:abc; b is scenario sha256:def"},
		{"different labels", []*result.Result{shard(t, "r42", 0, 2), otherBuild},
			[]string{"a", "b"}, false, "merge: different labels: a is labelled (none recorded); b is labelled build=1.10"},
		{"different counts", []*result.Result{shard(t, "r42", 0, 4), threeShards},
			[]string{"a", "b"}, false, "merge: different shard counts: a is a shard of 4; b is a shard of 3"},
		{"duplicated", []*result.Result{shard(t, "r42", 0, 3), shard(t, "r42", 1, 3), shard(t, "r42", 1, 3)},
			[]string{"a", "b", "c"}, false, "merge: shard 1/3 of run r42 appears twice: b and c"},
		{"missing", []*result.Result{shard(t, "r42", 0, 4), shard(t, "r42", 2, 4)},
			[]string{"a", "b"}, false, "merge: run r42 is missing shards 1, 3 of 4 (got 2;"},
		{"missing one", []*result.Result{shard(t, "r42", 0, 2)},
			[]string{"a"}, false, "merge: run r42 is missing shard 1 of 2"},
		{"shards and a plain run", []*result.Result{shard(t, "r42", 0, 2), plain},
			[]string{"a", "b"}, false, "merge: a is shard 0/2 of run r42 but b is not a shard"},
		{"starts apart", []*result.Result{strict, late},
			[]string{"a", "b"}, false, "merge: a started at "},
		{"starts apart, tolerance of old results", []*result.Result{shard(t, "r42", 0, 2), func() *result.Result {
			r := shard(t, "r42", 1, 2)
			r.Shard.StartAt = r.Shard.StartAt.Add(1500 * time.Millisecond)
			return r
		}()}, []string{"a", "b"}, false, "merge: a started at "},
		{"duplicated even when partial", []*result.Result{shard(t, "r42", 0, 3), shard(t, "r42", 0, 3)},
			[]string{"a", "b"}, true, "merge: shard 0/3 of run r42 appears twice: a and b"},
	}
	for _, tt := range tests {
		_, err := Shards(tt.rs, tt.names, Options{AllowPartial: tt.partial})
		var se *ShardError
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line starting %q", tt.name, err, tt.want)
		}
	}
}

// TestMergeShardsStartsWithinTolerance: start instants apart by less than
// the tolerance merge.
func TestMergeShardsStartsWithinTolerance(t *testing.T) {
	t.Parallel()
	a, b := shard(t, "r42", 0, 2), shard(t, "r42", 1, 2)
	a.Shard.StartToleranceMs, b.Shard.StartToleranceMs = 1000, 1000
	b.Shard.StartAt = b.Shard.StartAt.Add(300 * time.Millisecond)
	if _, err := Shards([]*result.Result{a, b}, []string{"a", "b"}, Options{}); err != nil {
		t.Fatal(err)
	}
}

// A shard stopped early by --abort-on-fail stops the merged run too: the
// merge carries aborted_by, names the shard, and the verdict fails.
func TestMergeShardsCarriesAbortedBy(t *testing.T) {
	t.Parallel()
	rs := []*result.Result{shard(t, "r7", 0, 2), shard(t, "r7", 1, 2)}
	rs[1].AbortedBy = "error_rate<5%"
	m, err := Shards(rs, []string{"a", "b"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.AbortedBy != "error_rate<5%" {
		t.Errorf("aborted_by %q", m.AbortedBy)
	}
	if w := strings.Join(m.Warnings, "\n"); !strings.Contains(w, "b (shard 1/2) was stopped early by --abort-on-fail: error_rate<5%") {
		t.Errorf("warnings %q", w)
	}
	if v := verdict.Of(m); v != verdict.Failed {
		t.Errorf("verdict %v, want failed", v)
	}
}

func TestMergeShardsPartial(t *testing.T) {
	t.Parallel()
	rs := []*result.Result{shard(t, "r42", 0, 4), shard(t, "r42", 3, 4)}
	rs[1].Interrupted = true
	m, err := Shards(rs, []string{"a", "b"}, Options{AllowPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Merged.Partial || fmt.Sprint(m.Merged.Missing) != "[1 2]" || !m.Interrupted {
		t.Fatalf("merged %+v interrupted %v", m.Merged, m.Interrupted)
	}
	w := strings.Join(m.Warnings, "\n")
	if !strings.Contains(w, "partial run: shards 1, 2 of 4 are missing") || !strings.Contains(w, "b (shard 3/4) was interrupted") {
		t.Errorf("warnings %q", w)
	}
}

// TestMergeShardsPlain checks that results that are not shards merge as
// independent generators, as before.
func TestMergeShardsPlain(t *testing.T) {
	t.Parallel()
	a, b := generator(t, 0, 1), generator(t, time.Second, 2)
	a.Config.RunID, b.Config.RunID = "x", "y"
	m, err := Shards([]*result.Result{a, b}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Merged.Inputs != 2 || m.Merged.Count != 0 || m.Latency.Count != 2000 {
		t.Errorf("merged %+v latency count %d", m.Merged, m.Latency.Count)
	}
}

// TestMergeSameRunTwice checks that one ordinary run given twice, or two
// copies of one document, is refused rather than counted twice.
func TestMergeSameRunTwice(t *testing.T) {
	t.Parallel()
	a := generator(t, 0, 1)
	a.Config.RunID = "r1"
	renamed := generator(t, 0, 1) // the same run id and start, other figures
	renamed.Config.RunID = "r1"
	renamed.Requests.Sent++
	noID := generator(t, 0, 1) // identical content, no run id
	noID2 := generator(t, 0, 1)
	tests := []struct {
		name string
		rs   []*result.Result
		want string
	}{
		{"same document", []*result.Result{a, a}, "merge: a1.json and a2.json are the same run (run r1 started "},
		{"same run id and start", []*result.Result{a, renamed}, "merge: a1.json and a2.json are the same run (run r1 started "},
		{"identical content", []*result.Result{noID, noID2}, "merge: a1.json and a2.json are the same run (identical content)"},
		{"third input", []*result.Result{generator(t, time.Second, 2), a, a}, "merge: a2.json and a3.json are the same run"},
	}
	for _, tt := range tests {
		names := []string{"a1.json", "a2.json", "a3.json"}[:len(tt.rs)]
		_, err := Shards(tt.rs, names, Options{})
		var se *ShardError
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line starting %q", tt.name, err, tt.want)
		}
	}
	// Same run id but different starts are different runs (a reused id).
	b := generator(t, time.Second, 1)
	b.Config.RunID = "r1"
	if _, err := Shards([]*result.Result{a, b}, nil, Options{}); err != nil {
		t.Errorf("different starts: %v", err)
	}
}

// TestMergeShardsShape checks that the shards of one run read as the one
// schedule they split, not as independent generators each at full rate.
func TestMergeShardsShape(t *testing.T) {
	t.Parallel()
	mk := func(i, n int) *result.Result {
		r := shard(t, "r42abc", i, n)
		r.Config.Shape = "constant 100/s for 2s"
		r.Config.RPS, r.RPS.Target = 100/float64(n), 100/float64(n) // the shard's share
		return r
	}
	tests := []struct {
		name      string
		rs        []*result.Result
		partial   bool
		wantShape string
		wantRPS   float64
	}{
		{"two shards", []*result.Result{mk(0, 2), mk(1, 2)}, false, "2 shards of constant 100/s for 2s", 100},
		{"partial", []*result.Result{mk(0, 4), mk(3, 4)}, true, "shards 0, 3 of 4 of constant 100/s for 2s", 50},
	}
	for _, tt := range tests {
		m, err := Shards(tt.rs, nil, Options{AllowPartial: tt.partial})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if m.Config.Shape != tt.wantShape || m.Config.RPS != tt.wantRPS || m.RPS.Target != tt.wantRPS {
			t.Errorf("%s: shape %q rps %v target %v, want %q and %v", tt.name, m.Config.Shape, m.Config.RPS, m.RPS.Target, tt.wantShape, tt.wantRPS)
		}
		var b strings.Builder
		if err := summary.Text(&b, m, summary.Options{}); err != nil {
			t.Fatal(err)
		}
		if want := tt.wantShape + ", target " + format.Num(tt.wantRPS) + " rps"; !strings.Contains(b.String(), want) || strings.Contains(b.String(), "generators ×") {
			t.Errorf("%s: text header does not read %q:\n%s", tt.name, want, b.String())
		}
	}
	// Shards of a closed model have no target rate either.
	closed := []*result.Result{mk(0, 2), mk(1, 2)}
	for _, r := range closed {
		r.Config.Shape = "closed, concurrency 100, 200 in 2 steps of 1s"
	}
	m, err := Shards(closed, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := summary.Text(&text, m, summary.Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "2 shards of closed, concurrency 100, 200 in 2 steps of 1s; achieved"; !strings.Contains(text.String(), want) {
		t.Errorf("closed shards: text header does not read %q", want)
	}
	// Independent generators still sum their shapes.
	a, b := generator(t, 0, 1), generator(t, time.Second, 2)
	a.Config.Shape, b.Config.Shape = "constant 50/s for 10m", "constant 50/s for 10m"
	m, err = Shards([]*result.Result{a, b}, nil, Options{})
	if err != nil || m.Config.Shape != "2 generators × constant 50/s for 10m" {
		t.Errorf("plain generators: shape %q, %v", m.Config.Shape, err)
	}
}
