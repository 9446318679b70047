package summary

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
)

// The Requests block reads as two sums: scheduled = sent + pool_exhausted
// + not_sent and sent = ok + failed; it states one error rate, the
// result's (pool_exhausted among the errors), and no other percentage.
func TestTextRequestsAddUp(t *testing.T) {
	tests := []struct {
		name  string
		res   result.Result
		lines []string // each a regexp for one line of the block
	}{
		{
			name: "pool exhausted",
			res: result.Result{
				Requests: result.Requests{Scheduled: 10, Sent: 2, OK: 2, Errors: 8},
				Errors:   map[string]int64{"pool_exhausted": 8},
			},
			lines: []string{
				`^  scheduled\s+10\b`, `^  sent\s+2\b`, `^    ok\s+2\b`, `^    failed\s+0\b`,
				`^  pool_exhausted\s+8\b`, `^  not sent\s+0\b`,
				`scheduled = sent \+ pool_exhausted \+ not_sent holds \(10 = 2 \+ 8 \+ 0\)`,
				`sent = ok \+ failed \(2 = 2 \+ 0\)`,
				`^  error rate 80\.00% = errors / attempted = \(failed \+ pool_exhausted\) / \(scheduled - not_sent\) = \(0 \+ 8\) / 10$`,
			},
		},
		{
			name: "errors among sent",
			res: result.Result{
				Requests: result.Requests{Scheduled: 12, Sent: 10, OK: 6, Errors: 5, NotSent: 1},
				Errors:   map[string]int64{"pool_exhausted": 1, "http_503": 4},
			},
			lines: []string{
				`^  sent\s+10\b`, `^    ok\s+6\b`, `^    failed\s+4\b`, `^  pool_exhausted\s+1\b`, `^  not sent\s+1\b`,
				`\(12 = 10 \+ 1 \+ 1\)`, `\(10 = 6 \+ 4\)`, `^  error rate 45\.45% = .* = \(4 \+ 1\) / 11$`,
			},
		},
		{
			name: "checkpoint with requests in flight",
			res: result.Result{
				Requests: result.Requests{Scheduled: 11, Sent: 11, OK: 0, Errors: 0, InFlight: 11},
				Errors:   map[string]int64{},
			},
			lines: []string{`^    in flight\s+11\b`, `sent = ok \+ failed \+ in_flight \(11 = 0 \+ 0 \+ 11\)`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			textRequests(&textWriter{Printer: format.NewPrinter(&b)}, &tt.res)
			out := b.String()
			for _, want := range tt.lines {
				if !regexp.MustCompile(`(?m)` + want).MatchString(out) {
					t.Errorf("no line matching %q in:\n%s", want, out)
				}
			}
			if n := strings.Count(out, "%"); n != 1 {
				t.Errorf("%d percentages, want the one error rate:\n%s", n, out)
			}
			if strings.Contains(out, "does not add up") {
				t.Errorf("accounting warning:\n%s", out)
			}
		})
	}
}

// A closed-model run has no target rate: its header says what load it
// applied instead of "target 0 rps".
func TestTextHeaderClosedModel(t *testing.T) {
	var b bytes.Buffer
	r := &result.Result{Config: result.RunConfig{Shape: "closed, concurrency 100, 200, … 1000 in 10 steps of 500ms"}, RPS: result.Rate{Achieved: 812}}
	textHeader(&textWriter{Printer: format.NewPrinter(&b)}, r)
	out := b.String()
	if !strings.Contains(out, "closed, concurrency 100, 200, … 1000 in 10 steps of 500ms; achieved 812 rps") ||
		strings.Contains(out, "target 0") || strings.Contains(out, "each shape") {
		t.Errorf("header:\n%s", out)
	}
}
