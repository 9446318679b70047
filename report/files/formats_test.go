package files

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
)

// TestComparisonSet checks which files a comparison is written to: the
// rendering, the HTML page, and the JUnit report only with gates.
func TestComparisonSet(t *testing.T) {
	if err := (ComparisonSet{Format: "pdf"}).Check(); err == nil || !strings.HasPrefix(err.Error(), "--format: unknown format \"pdf\"") {
		t.Errorf("Check of an unknown format: %v", err)
	}
	cmp := &compare.Comparison{NameA: "A", NameB: "B"}
	var none []*result.Result
	for _, c := range []struct {
		name      string
		gates     bool
		wantJUnit bool
	}{{"without gates", false, false}, {"with gates", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s := ComparisonSet{Format: "json", HTML: filepath.Join(dir, "c.html"), JUnit: filepath.Join(dir, "c.xml")}
			cmp.Gates = nil
			if c.gates {
				cmp.Gates = &compare.GateSet{}
			}
			var out bytes.Buffer
			if err := s.Write(&out, cmp, none, none); err != nil {
				t.Fatal(err)
			}
			if out.Len() == 0 {
				t.Error("nothing on stdout")
			}
			if _, err := os.Stat(s.HTML); err != nil {
				t.Errorf("HTML: %v", err)
			}
			if _, err := os.Stat(s.JUnit); (err == nil) != c.wantJUnit {
				t.Errorf("JUnit written: %v, want %v", err == nil, c.wantJUnit)
			}
		})
	}
}

// TestWriteResult checks that "" and "-" are stdout and a path a file.
func TestWriteResult(t *testing.T) {
	r := &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: "w1"}}
	for _, path := range []string{"", "-"} {
		var out bytes.Buffer
		if err := WriteResult(path, &out, r); err != nil || !strings.Contains(out.String(), `"w1"`) {
			t.Errorf("WriteResult(%q) wrote %q (%v)", path, out.String(), err)
		}
	}
	p := filepath.Join(t.TempDir(), "r.json")
	var out bytes.Buffer
	if err := WriteResult(p, &out, r); err != nil || out.Len() != 0 {
		t.Fatalf("WriteResult(file): %v, stdout %q", err, out.String())
	}
	if b, err := os.ReadFile(p); err != nil || !strings.Contains(string(b), `"w1"`) {
		t.Errorf("file holds %q (%v)", b, err)
	}
}

// TestComparisonSetOptions checks the settings with the files before any
// is read: the format first, then the comparison's settings, then
// --junit, which needs a gate and a writable path.
func TestComparisonSetOptions(t *testing.T) {
	dir := t.TempDir()
	ok := compare.Settings{Test: string(compare.Welch), Center: string(compare.Mean),
		GateOptions: compare.GateOptions{Alpha: compare.DefaultAlpha, Undecided: string(compare.UndecidedFail)}}
	gated := ok
	gated.Exprs = []string{"p99<+10%"}
	badTest := gated
	badTest.Test = "ks"
	for _, c := range []struct {
		name      string
		set       ComparisonSet
		st        compare.Settings
		want      string // "" when valid
		wantGates int
	}{
		{"plain", ComparisonSet{Format: "text"}, ok, "", 0},
		{"gates", ComparisonSet{Format: "json", JUnit: filepath.Join(dir, "j.xml")}, gated, "", 1},
		{"format first", ComparisonSet{Format: "pdf"}, badTest, `--format: unknown format "pdf"`, 0},
		{"then the settings", ComparisonSet{Format: "text"}, badTest, "--test: ", 0},
		{"junit without gates", ComparisonSet{Format: "text", JUnit: filepath.Join(dir, "j.xml")}, ok, "--junit reports gates: give at least one --gate", 0},
		{"junit on a folder", ComparisonSet{Format: "text", JUnit: dir}, gated, "--junit " + dir + ": is a folder", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts, err := c.set.Options(c.st)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("%v, want no error", err)
			case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
				t.Fatalf("error %v, want one starting %q", err, c.want)
			case c.want == "" && len(opts.Gates) != c.wantGates:
				t.Errorf("%d gates, want %d", len(opts.Gates), c.wantGates)
			}
		})
	}
}

// TestTextOnStdout checks when the text rendering, with its gates'
// section, is on stdout.
func TestTextOnStdout(t *testing.T) {
	for _, c := range []struct {
		set  ComparisonSet
		want bool
	}{
		{ComparisonSet{Format: "text"}, true},
		{ComparisonSet{Format: "text", Output: "-"}, true},
		{ComparisonSet{Format: "text", Output: "c.txt"}, false},
		{ComparisonSet{Format: "json"}, false},
		{ComparisonSet{Format: "markdown", Output: "-"}, false},
	} {
		if got := c.set.TextOnStdout(); got != c.want {
			t.Errorf("%+v: TextOnStdout() = %v, want %v", c.set, got, c.want)
		}
	}
}
