package trend

import (
	"bytes"
	"strings"
	"testing"
)

// TestWarnedRuns: a history whose runs carry "generator saturated" names
// them in every rendering, and its gate says it was decided on them; a
// history without warnings says nothing of the kind.
func TestWarnedRuns(t *testing.T) {
	t.Parallel()
	for _, warned := range []bool{true, false} {
		rs, names := regressedThenFixed()
		if warned {
			rs[4].Warnings = []string{"generator saturated: dispatch lag p99 12.00 ms (limit 5ms) while it used 8% CPU: " +
				"the machine did not run it on time (other work on the machine, a paused VM); latency includes that delay"}
			rs[7].Warnings = []string{"the target stopped answering for 2.0 s (from 3.0 s into the run) while requests waited"}
		}
		a, err := Analyze(rs, Options{By: "build", Names: names, Metrics: []string{"p99"}, Gates: gates(t, "p99<+10%")})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			name   string
			render func(*bytes.Buffer) error
			want   []string
		}{
			{"text", func(b *bytes.Buffer) error { return Text(b, a) }, []string{
				"runs/1.10-5.json (generator saturated)", "runs/1.11-8.json (the target stopped answering for 2.0 s",
				"Note: decided on inputs that carry a warning of their run: runs/1.10-5.json, runs/1.11-8.json.",
				"decided on 2 inputs that carry a warning",
			}},
			{"markdown", func(b *bytes.Buffer) error { return Markdown(b, a) }, []string{
				"runs/1.10-5.json (generator saturated)",
				"decided on inputs that carry a warning of their run: runs/1.10-5.json, runs/1.11-8.json",
				"decided on 2 inputs that carry a warning**",
			}},
			{"junit", func(b *bytes.Buffer) error { return JUnit(b, a) }, []string{
				`name="inputs_with_warnings" value="runs/1.10-5.json, runs/1.11-8.json"`,
				"(decided on inputs that carry a warning of their run: runs/1.10-5.json, runs/1.11-8.json)",
			}},
			{"json", func(b *bytes.Buffer) error { return JSON(b, a) }, []string{`"warned": [`, `"run": "runs/1.10-5.json"`}},
		} {
			var b bytes.Buffer
			if err := r.render(&b); err != nil {
				t.Fatalf("%s: %v", r.name, err)
			}
			out := b.String()
			for _, w := range r.want {
				if got := strings.Contains(out, w); got != warned {
					t.Errorf("warned %v, %s: holds %q: %v:\n%s", warned, r.name, w, got, out)
				}
			}
			if !warned && strings.Contains(out, "warning") {
				t.Errorf("%s: runs without warnings, yet:\n%s", r.name, out)
			}
		}
	}
}
