package report

import (
	"bytes"
	"path/filepath"
	"testing"

	goldenfile "github.com/vesload/vesload/internal/golden"
	"github.com/vesload/vesload/report/internal/reporttest"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/summary"
)

func TestGolden(t *testing.T) {
	t.Parallel()
	interrupted := emptyResult()
	interrupted.Interrupted = true
	interrupted.DurationS = 12.5
	interrupted.Config.DurationS = 60
	labelled := func() *result.Result { // labels as a nightly job sets them, one with Markdown's own characters
		r := sampleResult(t)
		r.Config.Labels = map[string]string{"build": "1.9.1", "note": "a|b *c* `d`"}
		return r
	}
	tests := []struct {
		name   string
		render func(*bytes.Buffer) error
	}{
		{"text.golden", func(b *bytes.Buffer) error { return summary.Text(b, sampleResult(t), summary.Options{}) }},
		{"text_empty.golden", func(b *bytes.Buffer) error { return summary.Text(b, emptyResult(), summary.Options{}) }},
		{"markdown.golden", func(b *bytes.Buffer) error { return Markdown(b, sampleResult(t)) }},
		{"markdown_empty.golden", func(b *bytes.Buffer) error { return Markdown(b, emptyResult()) }},
		{"markdown_labels.golden", func(b *bytes.Buffer) error { return Markdown(b, labelled()) }},
		{"markdown_table_labels.golden", func(b *bytes.Buffer) error {
			return MarkdownTable(b, []*result.Result{labelled(), emptyResult()}, nil)
		}},
		{"markdown_hv.golden", func(b *bytes.Buffer) error { return Markdown(b, hvResult(t)) }},
		{"markdown_table_hv.golden", func(b *bytes.Buffer) error {
			return MarkdownTable(b, []*result.Result{hvResult(t), hvResult(t)}, []string{"build A", "build B"})
		}},
		{"markdown_table.golden", func(b *bytes.Buffer) error {
			return MarkdownTable(b, []*result.Result{sampleResult(t), emptyResult()}, []string{"DMaaP | run 1", "Cambria run 1"})
		}},
		{"markdown_table_unnamed.golden", func(b *bytes.Buffer) error {
			return MarkdownTable(b, []*result.Result{sampleResult(t), emptyResult()}, nil)
		}},
		{"junit.golden", func(b *bytes.Buffer) error { return JUnit(b, sampleResult(t)) }},
		{"junit_interrupted.golden", func(b *bytes.Buffer) error { return JUnit(b, interrupted) }},
		{"timeline.csv.golden", func(b *bytes.Buffer) error { return CSV(b, sampleResult(t)) }},
		{"timeline_empty.csv.golden", func(b *bytes.Buffer) error { return CSV(b, emptyResult()) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := tc.render(&b); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b.Bytes())
		})
	}
}

// golden compares got with testdata/name (see internal/golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// TestCapacityMarkdown: a capacity search as Markdown, found, laid to the
// generator and undecided, its URL, SLOs and figures escaped.
func TestCapacityMarkdown(t *testing.T) {
	t.Parallel()
	generator := reporttest.Capacity()
	generator.Capacity.LimitedBy, generator.Capacity.Confirmed = result.CauseGenerator, false
	generator.Capacity.Advice = "the generator, not the target, limits at 800/s on this machine: add shards (vesload kube)"
	for i := range generator.Capacity.Steps {
		if !generator.Capacity.Steps[i].Pass {
			generator.Capacity.Steps[i].Cause = result.CauseGenerator
		}
	}
	undecided := reporttest.Capacity()
	undecided.Capacity = result.Capacity{FailRPS: 100, BrokenBy: "p99<100ms: 140.00 ms `x`", LimitedBy: result.CauseTarget,
		Undecided: "no step held the SLOs, down to 1/s", AskedPrecisionPct: 5,
		Steps: undecided.Capacity.Steps[:1]}
	undecided.Capacity.Steps[0].Pass, undecided.Capacity.Steps[0].Cause = false, result.CauseTarget
	undecided.Capacity.Steps[0].Phase = "climb|*x*"
	hv := reporttest.Capacity()
	hv.Config.URL, hv.Config.Protocol, hv.Config.Producers, hv.Config.SizeBytes = "tcp://127.0.0.1:6061", result.ProtocolHV, 2, 8192
	for i := range hv.Capacity.Steps[1:] { // the first step's events were not followed
		e2e := 1.5 + 100*float64(i)
		hv.Capacity.Steps[i+1].E2EP99Ms = &e2e
	}
	for _, tc := range []struct {
		name string
		doc  *result.CapacityDocument
	}{
		{"capacity.md.golden", reporttest.Capacity()},
		{"capacity_generator.md.golden", generator},
		{"capacity_undecided.md.golden", undecided},
		{"capacity_empty.md.golden", &result.CapacityDocument{}},
		{"capacity_hv.md.golden", hv},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := CapacityMarkdown(&b, tc.doc); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b.Bytes())
		})
	}
}
