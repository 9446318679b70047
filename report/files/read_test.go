package files

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

func TestExpandGlobs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []string{"a2.json", "a1.json", "b1.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		args    []string
		want    []string
		wantErr string
	}{
		{"a pattern in name order, a plain name kept", []string{filepath.Join(dir, "a*.json"), "plain.json"},
			[]string{filepath.Join(dir, "a1.json"), filepath.Join(dir, "a2.json"), "plain.json"}, ""},
		{"nothing matches", []string{filepath.Join(dir, "c*.json")}, nil, "no file matches"},
		{"bad pattern", []string{"[.json"}, nil, "bad pattern"},
	}
	for _, tt := range tests {
		got, err := ExpandGlobs(tt.args)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

// TestInputs reads files, globs and a stream on stdin in the order given,
// and refuses stdin twice and nothing at all.
func TestInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, id string) string {
		p := filepath.Join(dir, name)
		if err := resultfile.Write(p, &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: id}}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := write("s0.json", "r0"), write("s1.json", "r1")
	var stream strings.Builder
	if err := resultfile.Encode(&stream, &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: "r2"}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		ids     string
		wantErr error
	}{
		{"files and a stream", []string{a, "-", b}, "r0 r2 r1", nil},
		{"a glob", []string{filepath.Join(dir, "s*.json")}, "r0 r1", nil},
		{"nothing", nil, "", ErrNoInputs},
		{"stdin twice", []string{"-", "-"}, "", errors.New("'-' given twice")},
	}
	for _, tt := range tests {
		rs, names, err := Inputs(tt.args, strings.NewReader("pod log line\n"+stream.String()))
		if tt.wantErr != nil {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr.Error()) {
				t.Errorf("%s: %v, want %v", tt.name, err, tt.wantErr)
			}
			continue
		}
		var ids []string
		for _, r := range rs {
			ids = append(ids, r.Config.RunID)
		}
		if err != nil || strings.Join(ids, " ") != tt.ids || len(names) != len(rs) {
			t.Errorf("%s: runs %v named %v (%v); want %s", tt.name, ids, names, err, tt.ids)
		}
	}
}

// TestReadSides checks that both sides of a comparison need files, and
// that each side keeps its files in order with their results.
func TestReadSides(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string {
		p := filepath.Join(dir, name)
		if err := resultfile.Write(p, &result.Result{Schema: result.Schema, Errors: map[string]int64{}, Config: result.RunConfig{RunID: name}}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a1, a2, b1 := write("a1.json"), write("a2.json"), write("b1.json")
	for _, c := range []struct {
		name         string
		argsA, argsB []string
		wantA, wantB int
		wantErr      string
	}{
		{"both", []string{filepath.Join(dir, "a*.json")}, []string{b1}, 2, 1, ""},
		{"one a side", []string{a1}, []string{a2}, 1, 1, ""},
		{"empty side", []string{a1}, nil, 0, 0, "want result files on both sides of --vs, got 1 before and 0 after"},
		{"no match", []string{filepath.Join(dir, "z*.json")}, []string{b1}, 0, 0, "z*.json"},
		{"missing file", []string{a1}, []string{filepath.Join(dir, "none.json")}, 0, 0, "none.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b, err := ReadSides(c.argsA, c.argsB)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || len(a.Results) != c.wantA || len(b.Results) != c.wantB || len(a.Files) != c.wantA {
				t.Fatalf("ReadSides = %d, %d results (%v)", len(a.Results), len(b.Results), err)
			}
			if a.Results[0].Config.RunID != filepath.Base(a.Files[0]) {
				t.Errorf("side A's first result is %q, its file %q", a.Results[0].Config.RunID, a.Files[0])
			}
		})
	}
}
