package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current output")

// golden compares got with testdata/name, or rewrites the file under
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test ./report -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run go test ./report -update after checking the change)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}

func TestGolden(t *testing.T) {
	t.Parallel()
	interrupted := emptyResult()
	interrupted.Interrupted = true
	interrupted.DurationS = 12.5
	interrupted.Config.DurationS = 60
	tests := []struct {
		name   string
		render func(*bytes.Buffer) error
	}{
		{"text.golden", func(b *bytes.Buffer) error { return Text(b, sampleResult(t), TextOptions{}) }},
		{"text_empty.golden", func(b *bytes.Buffer) error { return Text(b, emptyResult(), TextOptions{}) }},
		{"markdown.golden", func(b *bytes.Buffer) error { return Markdown(b, sampleResult(t)) }},
		{"markdown_empty.golden", func(b *bytes.Buffer) error { return Markdown(b, emptyResult()) }},
		{"markdown_table.golden", func(b *bytes.Buffer) error {
			return MarkdownTable(b, []*Result{sampleResult(t), emptyResult()}, []string{"DMaaP | run 1", "Cambria run 1"})
		}},
		{"markdown_table_unnamed.golden", func(b *bytes.Buffer) error {
			return MarkdownTable(b, []*Result{sampleResult(t), emptyResult()}, nil)
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
