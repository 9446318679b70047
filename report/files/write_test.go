package files

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

// An output that cannot be written after the run is saved beside, in the
// temporary folder, as the result document is; the others are still written.
func TestFailedOutputSavedBeside(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	md := filepath.Join(dir, "ok.md")
	set := Set{HTML: "/nonexistent/x.html", Markdown: md}
	res := &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: "r1"}}
	var stdout, stderr bytes.Buffer
	err := set.Write(context.Background(), res, &stdout, &stderr)
	if err == nil {
		t.Fatal("writing to a missing folder did not fail")
	}
	saved := filepath.Join(dir, "vesload-html-r1.html")
	if !strings.Contains(err.Error(), "saved to "+saved) {
		t.Fatalf("error %q does not say where the HTML went (%s)", err, saved)
	}
	if b, err := os.ReadFile(saved); err != nil || !bytes.Contains(b, []byte("<html")) {
		t.Fatalf("saved HTML: %v, %.80q", err, b)
	}
	if _, err := os.Stat(md); err != nil {
		t.Errorf("the Markdown after the failed HTML was not written: %v", err)
	}
}

// TestSetPaths checks that every file of a set is named by its option,
// so that Check's errors point at the option.
func TestSetPaths(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		set  Set
		want []Path
	}{
		{"none", Set{}, []Path{{Option: "-o"}, {Option: "--html"}, {Option: "--junit"}, {Option: "--markdown"}, {Option: "--csv"}}},
		{"every one", Set{Result: "r.json", JUnit: "j.xml", HTML: "r.html", Markdown: "r.md", CSV: "r.csv"},
			[]Path{{"-o", "r.json"}, {"--html", "r.html"}, {"--junit", "j.xml"}, {"--markdown", "r.md"}, {"--csv", "r.csv"}}},
	} {
		if got := c.set.Paths(); !slices.Equal(got, c.want) {
			t.Errorf("%s: paths %v, want %v", c.name, got, c.want)
		}
	}
}
