package files

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/trend"
)

// TestExpandHistory: a folder is its *.json files in name order, a
// pattern its matches, a file itself; a folder without results and a
// pattern matching nothing are errors naming them.
func TestExpandHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []string{"b.json", "a.json", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	more := filepath.Join(dir, "more")
	if err := os.Mkdir(more, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(more, "c.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ExpandHistory([]string{dir, filepath.Join(more, "c.*"), "x.json"})
	want := []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(more, "c.json"), "x.json"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ExpandHistory = %q, %v; want %q", got, err, want)
	}
	// A folder whose name a pattern would read otherwise.
	odd := filepath.Join(dir, "nightly[1]")
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"2.json", "1.json"} {
		if err := os.WriteFile(filepath.Join(odd, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := ExpandHistory([]string{odd}); err != nil || !slices.Equal(got, []string{filepath.Join(odd, "1.json"), filepath.Join(odd, "2.json")}) {
		t.Errorf("folder %s: %q, %v", odd, got, err)
	}
	file := filepath.Join(odd, "1.json") // a file, though its name reads as a pattern
	if got, err := ExpandHistory([]string{file}); err != nil || !slices.Equal(got, []string{file}) {
		t.Errorf("file %s: %q, %v", file, got, err)
	}
	if _, err := ExpandHistory([]string{empty}); err == nil || !strings.Contains(err.Error(), empty+": no result files") {
		t.Errorf("empty folder: %v", err)
	}
	if _, err := ExpandHistory([]string{filepath.Join(dir, "*.xml")}); err == nil || !strings.Contains(err.Error(), "no file matches") {
		t.Errorf("pattern matching nothing: %v", err)
	}
}

// TestHistorySet: the checks before any file is read, and what is
// written where.
func TestHistorySet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		set   HistorySet
		gates int
		want  string
	}{
		{HistorySet{Format: "text"}, 0, ""},
		{HistorySet{Format: "pdf"}, 0, `--format: unknown format "pdf" (want html, json, markdown, text)`},
		{HistorySet{Format: "text", JUnit: filepath.Join(dir, "j.xml")}, 0, "--junit reports gates"},
		{HistorySet{Format: "text", HTML: dir}, 0, "--html " + dir + ": is a folder"},
		{HistorySet{Format: "text", Output: filepath.Join(dir, "o"), HTML: filepath.Join(dir, "o")}, 0, "name the same file"},
	} {
		err := c.set.Check(c.gates)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.set, err, c.want)
		}
	}
	a := &trend.Analysis{Runs: []trend.Run{{Name: "a.json", Build: "a"}, {Name: "b.json", Build: "b"}}}
	s := HistorySet{Format: "json", HTML: filepath.Join(dir, "t.html"), JUnit: filepath.Join(dir, "t.xml")}
	var out bytes.Buffer
	if err := s.Write(&out, a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"runs"`) {
		t.Errorf("stdout %q is not the JSON rendering", out.String())
	}
	if _, err := os.Stat(s.HTML); err != nil {
		t.Errorf("HTML: %v", err)
	}
	if _, err := os.Stat(s.JUnit); err == nil {
		t.Error("JUnit written without gates")
	}
}
