package resultfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func compactJSON(t *testing.T, r *result.Result) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func indented(t *testing.T, r *result.Result) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Encode(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestScanResults(t *testing.T) {
	t.Parallel()
	s0, s1, s2 := shard(t, "r42", 0, 3), shard(t, "r42", 1, 3), shard(t, "r42", 2, 3)
	tests := []struct {
		name      string
		log       string
		wantIdx   []int
		wantNames []string
	}{
		{"one line each, among other lines",
			"vesload: starting\n" + compactJSON(t, s0) + "\n{\"level\":\"info\",\"msg\":\"x\"}\nprogress 10s\n" + compactJSON(t, s1) + "\n" + "{ not json\n" + compactJSON(t, s2) + "\nsummary\n",
			[]int{0, 1, 2}, []string{"stdin: result 1 (shard 0/3)", "stdin: result 2 (shard 1/3)", "stdin: result 3 (shard 2/3)"}},
		{"indented, as -o - writes it",
			"progress\n" + indented(t, s2) + "Summary\n| a | b |\n" + indented(t, s0),
			[]int{2, 0}, nil},
		{"kubectl --prefix: the last result of each pod",
			prefixed("pod/vl-0-abc/vesload", "starting\n"+compactJSON(t, s1)+"\n"+compactJSON(t, s0)+"\n") +
				prefixed("pod/vl-1-def/vesload", "starting\n"+indented(t, s1)+"done\n"),
			[]int{0, 1}, []string{"stdin: pod/vl-0-abc/vesload", "stdin: pod/vl-1-def/vesload"}},
		{"a duplicate stays a duplicate", compactJSON(t, s1) + "\n" + compactJSON(t, s1) + "\n", []int{1, 1}, nil},
	}
	for _, tt := range tests {
		rs, names, err := ScanResults(strings.NewReader(tt.log), "stdin")
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var idx []int
		for _, r := range rs {
			idx = append(idx, r.Shard.Index)
		}
		if fmt.Sprint(idx) != fmt.Sprint(tt.wantIdx) {
			t.Errorf("%s: found shards %v, want %v", tt.name, idx, tt.wantIdx)
		}
		if tt.wantNames != nil && fmt.Sprint(names) != fmt.Sprint(tt.wantNames) {
			t.Errorf("%s: names %q, want %q", tt.name, names, tt.wantNames)
		}
	}
}

func prefixed(pod, log string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(log, "\n") {
		if l != "" {
			b.WriteString("[" + pod + "] " + l)
		}
	}
	return b.String()
}

func TestScanResultsErrors(t *testing.T) {
	t.Parallel()
	bad := strings.Replace(compactJSON(t, shard(t, "r", 0, 2)), `"vesload/result/v1"`, `"vesload/result/v9"`, 1)
	for _, log := range []string{"", "only progress\nlines\n", `{"level":"info"}` + "\n", bad + "\n"} {
		if _, _, err := ScanResults(strings.NewReader(log), "stdin"); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%.40q: error %v, want one line", log, err)
		}
	}
}

func FuzzScanResults(f *testing.F) {
	r := &result.Result{Schema: result.Schema}
	b, _ := json.Marshal(r)
	f.Add([]byte("x\n" + string(b) + "\n"))
	f.Add([]byte("[pod/a/b] {\n[pod/a/b] }\n"))
	f.Add([]byte("{\"schema\":1}\n{"))
	f.Fuzz(func(t *testing.T, log []byte) {
		rs, names, err := ScanResults(bytes.NewReader(log), "stdin")
		if err == nil && (len(rs) == 0 || len(rs) != len(names)) {
			t.Fatalf("%d results, %d names, no error", len(rs), len(names))
		}
	})
}
