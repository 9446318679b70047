package compare

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// saturatedWarning is the head of the warning a run on a busy machine
// carries.
const saturatedWarning = "generator saturated: dispatch lag p99 12.00 ms (limit 5ms) while it used 8% CPU: " +
	"the machine did not run it on time (other work on the machine, a paused VM); latency includes that delay"

// TestWarnedInputs compares runs of which one a side carries a warning
// of its run: every rendering names those inputs, and the gate decided on
// them says so in text, Markdown and JUnit. Runs without warnings say
// nothing of the kind.
func TestWarnedInputs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		warned bool
	}{{"inputs with warnings", true}, {"inputs without", false}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := side(t, 10, 1, 1.00, 1.03, 0.98)
			b := side(t, 13, 10, 1.01, 0.99, 1.02)
			if tc.warned {
				a[1].Warnings = []string{saturatedWarning}
				b[2].Warnings = []string{"the pool was the limit: 12 requests (1.2%) found none of the 16 connections free", saturatedWarning}
			}
			opts := Options{
				LabelsA: []string{"a-1.json", "a-2.json", "a-3.json"}, LabelsB: []string{"b-1.json", "b-2.json", "b-3.json"},
				Gates: mustGates(t, "p99<+10%"),
			}
			c, err := Compare(a, b, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkWarnedRenderings(t, c, tc.warned)
		})
	}
}

func checkWarnedRenderings(t *testing.T, c *Comparison, warned bool) {
	t.Helper()
	for _, r := range []struct {
		name   string
		render func(*bytes.Buffer, *Comparison) error
		want   []string
	}{
		{"text", func(b *bytes.Buffer, c *Comparison) error { return Text(b, c) }, []string{
			"a-2.json (generator saturated)", "b-3.json (the pool was",
			"Note: decided on inputs that carry a warning of their run: a-2.json, b-3.json.",
			"decided on 2 inputs that carry a warning",
		}},
		{"markdown", func(b *bytes.Buffer, c *Comparison) error { return Markdown(b, c) }, []string{
			"a-2.json (generator saturated)", "decided on inputs that carry a warning of their run: a-2.json, b-3.json",
			"decided on 2 inputs that carry a warning**",
		}},
		{"junit", func(b *bytes.Buffer, c *Comparison) error { return JUnit(b, c) }, []string{
			`name="inputs_with_warnings" value="a-2.json, b-3.json"`,
			"(decided on inputs that carry a warning of their run: a-2.json, b-3.json)",
		}},
		{"json", func(b *bytes.Buffer, c *Comparison) error { return JSON(b, c) }, []string{
			`"warned": [`, `"run": "a-2.json"`, `"run": "b-3.json"`,
		}},
	} {
		var b bytes.Buffer
		if err := r.render(&b, c); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		out := b.String()
		for _, w := range r.want {
			if got := strings.Contains(out, w); got != warned {
				t.Errorf("%s: holds %q: %v, want %v:\n%s", r.name, w, got, warned, out)
			}
		}
		if !warned && strings.Contains(out, "warning") {
			t.Errorf("%s: inputs without warnings, yet:\n%s", r.name, out)
		}
	}
}

// TestWarnedRunsGist: each warning is named by its head, cut short.
func TestWarnedRunsGist(t *testing.T) {
	t.Parallel()
	rs := []*result.Result{{}, {Warnings: []string{strings.Repeat("x", 80)}}, nil}
	ws := WarnedRuns(rs, []string{"one.json"})
	if len(ws) != 1 || ws[0].Run != "run 2" {
		t.Fatalf("WarnedRuns = %+v, want run 2 alone", ws)
	}
	if note := WarnedNote(ws); !strings.Contains(note, "run 2 ("+strings.Repeat("x", 59)+"…)") {
		t.Errorf("note %q: want the warning cut at 60 characters", note)
	}
}
