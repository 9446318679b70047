package files

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// TestCheck: two outputs on one file however spelled, a folder and a
// missing folder are refused; the null device may take several outputs,
// and "-o -" is the terminal.
func TestCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	same := filepath.Join(dir, "same.out")
	link := filepath.Join(dir, "link.out")
	if err := os.Symlink(same, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.out")
	if err := os.WriteFile(same, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(same, hard); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		outs []Path
		want string // "" when accepted
	}{
		{"null device twice", []Path{{"--jtl", os.DevNull}, {"--hdr-log", os.DevNull}, {"-o", "-"}, {"--csv", ""}}, ""},
		{"distinct files", []Path{{"-o", filepath.Join(dir, "a")}, {"--html", filepath.Join(dir, "b")}}, ""},
		{"one file", []Path{{"-o", same}, {"--html", same}}, "-o " + same + " and --html " + same + " name the same file"},
		{"relative and absolute", []Path{{"--csv", same}, {"--markdown", filepath.Join(dir, ".", "sub", "..", "same.out")}}, "name the same file"},
		{"through a symlink", []Path{{"--jtl", link}, {"--hdr-log", same}}, "--jtl " + link},
		{"a hard link", []Path{{"--jtl", hard}, {"-o", same}}, "name the same file"},
		{"a folder", []Path{{"--html", dir}}, "--html " + dir + ": is a folder"},
		{"a missing folder", []Path{{"--csv", filepath.Join(dir, "nope", "x.csv")}}, "--csv " + filepath.Join(dir, "nope", "x.csv")},
	}
	for _, tt := range tests {
		err := Check(tt.outs)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}

// TestFailedRenderingKeepsItsFormatsExtension: a rendering that cannot
// be written is saved under its format's own extension
// (vesload-<kind>-<run id>.<ext>), whatever name the option gave it, and
// the result under vesload-result-<run id>.json.
func TestFailedRenderingKeepsItsFormatsExtension(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	s := Set{Result: "/nonexistent/r.json", HTML: "/nonexistent/report", JUnit: "/nonexistent/junit.txt", Markdown: "/nonexistent/summary", CSV: "/nonexistent/timeline"}
	res := &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: "r2"}}
	var stdout, stderr bytes.Buffer
	err := s.Write(context.Background(), res, &stdout, &stderr)
	if err == nil {
		t.Fatal("writing to a missing folder did not fail")
	}
	for _, name := range []string{"vesload-result-r2.json", "vesload-html-r2.html", "vesload-junit-r2.xml", "vesload-markdown-r2.md", "vesload-csv-r2.csv"} {
		saved := filepath.Join(dir, name)
		if !strings.Contains(err.Error(), "saved to "+saved) {
			t.Errorf("error %q does not name %s", err, saved)
		}
		if _, serr := os.Stat(saved); serr != nil {
			t.Errorf("%s: %v", name, serr)
		}
	}
}

// TestResultPrintedWhenNothingCanBeWritten: with no temporary folder
// either, the result goes to stderr rather than being lost.
func TestResultPrintedWhenNothingCanBeWritten(t *testing.T) {
	t.Setenv("TMPDIR", "/nonexistent")
	res := &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: "r3"}}
	var stderr bytes.Buffer
	err := SaveResult(context.Background(), "/nonexistent/r.json", res, &stderr)
	if err == nil || !strings.Contains(err.Error(), "printed on stderr") || !strings.Contains(stderr.String(), `"run_id": "r3"`) {
		t.Errorf("error %v, stderr %q: want the result printed on stderr", err, stderr.String())
	}
}
