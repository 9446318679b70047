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
