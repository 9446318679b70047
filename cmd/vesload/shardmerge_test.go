package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// cliShard is cliResult as shard i of n of run.
func cliShard(t *testing.T, run string, i, n int) *result.Result {
	t.Helper()
	r := cliResult(t, 10, uint64(i+1), cliStart)
	r.Config.RunID, r.Config.Digest = run, "sha256:0123"
	r.Config.Thresholds = nil
	r.Shard = &result.ShardInfo{Index: i, Count: n, StartAt: cliStart}
	return r
}

// podLog is what a shard's pod prints with -o -: progress on stderr, the
// result on stdout, the summary after it.
func podLog(t *testing.T, r *result.Result) string {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("vesload: sending to http://ves:8080/eventListener/v7\n")
	if err := resultfile.Encode(&b, r); err != nil {
		t.Fatal(err)
	}
	b.WriteString("Summary (latency from due time, ms)\n| Avg | Max |\n")
	return b.String()
}

func mergeStream(stdin string, args ...string) (int, string, string) {
	return cliRun(func(a []string, out, errw io.Writer) int {
		return mergeCommand(a, strings.NewReader(stdin), out, errw)
	}, args...)
}

// mergedLogs merges the pods' logs as `vesload merge -` does and decodes
// the merged result; a merge that fails fails the test.
func mergedLogs(t *testing.T, logs string) *result.Result {
	t.Helper()
	code, stdout, errs := mergeStream(logs, "-")
	if code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	m, err := resultfile.Decode(strings.NewReader(stdout), "merged")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMergeStream(t *testing.T) {
	t.Parallel()
	var log strings.Builder
	for i := range 4 {
		log.WriteString(podLog(t, cliShard(t, "r42", i, 4)))
	}
	code, stdout, stderr := mergeStream(log.String(), "-", "--threshold", "p99<10s")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := resultfile.Decode(strings.NewReader(stdout), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	if m.Requests.Sent != 4000 || m.Merged == nil || m.Merged.Count != 4 || len(m.Thresholds) != 1 || !m.Thresholds[0].Pass {
		t.Fatalf("merged sent %d info %+v thresholds %+v", m.Requests.Sent, m.Merged, m.Thresholds)
	}
	// The gate given to merge is evaluated on the merged result: exit 3.
	if code, _, stderr := mergeStream(log.String(), "-", "--threshold", "p99<1ms"); code != exitThreshold {
		t.Errorf("failing gate: exit %d: %s", code, stderr)
	}
}

func TestMergeShardsExitTwo(t *testing.T) {
	t.Parallel()
	logOf := func(rs ...*result.Result) string {
		var b strings.Builder
		for _, r := range rs {
			b.WriteString(podLog(t, r))
		}
		return b.String()
	}
	s := func(run string, i, n int) *result.Result { return cliShard(t, run, i, n) }
	tests := []struct {
		name string
		log  string
		args []string
		want string
	}{
		{"different runs", logOf(s("r42", 0, 2), s("r43", 1, 2)), nil, "vesload: merge: different runs: stdin: result 1 (shard 0/2) is run r42; stdin: result 2 (shard 1/2) is run r43"},
		{"duplicated", logOf(s("r42", 0, 2), s("r42", 1, 2), s("r42", 1, 2)), nil, "vesload: merge: shard 1/2 of run r42 appears twice"},
		{"missing", logOf(s("r42", 0, 3), s("r42", 2, 3)), nil, "vesload: merge: run r42 is missing shard 1 of 3"},
		{"nothing in the stream", "progress\nonly\n", nil, "vesload: merge: stdin: no vesload result in the stream"},
		{"bad gate", logOf(s("r42", 0, 1)), []string{"--threshold", "p99<<1"}, "vesload: merge: --threshold"},
	}
	for _, tt := range tests {
		code, out, errs := mergeStream(tt.log, append([]string{"-"}, tt.args...)...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errs, tt.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d stdout %.40q stderr %q, want exit 2 and one line starting %q", tt.name, code, out, errs, tt.want)
		}
	}
	// --allow-partial merges what is there and says what is missing.
	code, out, errs := mergeStream(logOf(s("r42", 0, 3), s("r42", 2, 3)), "-", "--allow-partial")
	if code != exitOK || !strings.Contains(errs, "partial run: shards [1] of 3 are missing") {
		t.Fatalf("partial: exit %d stderr %q", code, errs)
	}
	if m, err := resultfile.Decode(strings.NewReader(out), "stdout"); err != nil || !m.Merged.Partial {
		t.Fatalf("partial result: %v %+v", err, m)
	}
	// A shard that was interrupted fails the whole run.
	broken := s("r42", 1, 2)
	broken.Interrupted = true
	code, _, errs = mergeStream(logOf(s("r42", 0, 2), broken), "-")
	if code != exitInterrupted || !strings.Contains(errs, "stdin: result 2 (shard 1/2) was interrupted") {
		t.Fatalf("interrupted shard: exit %d stderr %q", code, errs)
	}
}

// A shard that --abort-on-fail stopped early fails the merged run, whose
// figures may pass every gate: exit 3, the shard named, aborted_by kept.
func TestMergeShardStoppedEarlyFails(t *testing.T) {
	t.Parallel()
	var log strings.Builder
	for i := range 3 {
		r := cliShard(t, "r43", i, 3)
		if i == 2 {
			r.AbortedBy = "error_rate<5%"
		}
		log.WriteString(podLog(t, r))
	}
	code, stdout, stderr := mergeStream(log.String(), "-", "--threshold", "p99<10s")
	if code != exitThreshold || !strings.Contains(stderr, "stopped early by --abort-on-fail: error_rate<5%") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := resultfile.Decode(strings.NewReader(stdout), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	if m.AbortedBy != "error_rate<5%" || !m.Thresholds[0].Pass {
		t.Errorf("aborted_by %q thresholds %+v", m.AbortedBy, m.Thresholds)
	}
}
