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

// TestCopyName: each pod of a run writes its copy under a name of its
// own, so that a shared volume holds them all.
func TestCopyName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		res  result.Result
		want string
	}{
		{result.Result{Config: result.RunConfig{RunID: "r1"}}, "vesload-r1.json"},
		{result.Result{Config: result.RunConfig{RunID: "r1"}, Shard: &result.ShardInfo{Index: 2, Count: 4}}, "vesload-r1-shard-2.json"},
		{result.Result{Config: result.RunConfig{RunID: "r1"}, Shard: &result.ShardInfo{Index: 0, Count: 1}}, "vesload-r1.json"},
		{result.Result{Config: result.RunConfig{RunID: "r1"}, Delivery: &result.Delivery{Consumer: true}}, "vesload-r1-consume.json"},
	} {
		if got := CopyName(&tt.res); got != tt.want {
			t.Errorf("CopyName = %q, want %q", got, tt.want)
		}
	}
}

// TestSetDir: the result goes to stdout and its copy into Dir; a folder
// that is missing or not a folder is refused before the run.
func TestSetDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: "r1"},
		Shard: &result.ShardInfo{Index: 1, Count: 2}}
	var stdout, stderr bytes.Buffer
	if err := (Set{Result: "-", Dir: dir}).Write(context.Background(), res, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "vesload-r1-shard-1.json"))
	if err != nil || !bytes.Equal(b, stdout.Bytes()) {
		t.Fatalf("copy %v: %d bytes, stdout %d: want the same document", err, len(b), stdout.Len())
	}
	if err := CheckDir("--result-dir", dir); err != nil {
		t.Errorf("a writable folder: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the check left files behind: %v", entries)
	}
	for _, bad := range []string{filepath.Join(dir, "none"), filepath.Join(dir, "vesload-r1-shard-1.json")} {
		if err := CheckDir("--result-dir", bad); err == nil || !strings.HasPrefix(err.Error(), "--result-dir "+bad+": want an existing folder") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
