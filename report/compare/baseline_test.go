package compare

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/resultfile"
)

// TestLoadBaseline checks the --baseline options: every error names its
// option, and no file and no gate is no baseline.
func TestLoadBaseline(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "base.json")
	if err := resultfile.Write(good, side(t, 100, 1, 0)[0]); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.json") // a timeline without per-second means
	older := timeline(side(t, 100, 1, 0)[0], 5, 20)
	for i := range older.Timeline {
		older.Timeline[i].AvgMs, older.Timeline[i].P95Ms = 0, 0
	}
	if err := resultfile.Write(old, older); err != nil {
		t.Fatal(err)
	}
	withMean := timeline(side(t, 100, 1, 0)[0], 5, 20)
	current := filepath.Join(dir, "current.json")
	if err := resultfile.Write(current, withMean); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	ok := GateOptions{Exprs: []string{"p99<+10%"}, Alpha: 0.05, Undecided: "fail"}
	for _, c := range []struct {
		name    string
		file    string
		o       GateOptions
		wantErr string
		wantNil bool
	}{
		{"nothing", "", GateOptions{Alpha: 0.05, Undecided: "fail"}, "", true},
		{"gate without baseline", "", ok, "--gate judges against a stored result", true},
		{"baseline without gate", good, GateOptions{Alpha: 0.05, Undecided: "fail"}, "give at least one --gate", true},
		{"bad alpha", good, GateOptions{Exprs: ok.Exprs, Alpha: 1, Undecided: "fail"}, "--alpha:", true},
		{"bad undecided", good, GateOptions{Exprs: ok.Exprs, Alpha: 0.05, Undecided: "maybe"}, "--gate-undecided:", true},
		{"bad gate", good, GateOptions{Exprs: []string{"p99<"}, Alpha: 0.05, Undecided: "fail"}, "--gate:", true},
		{"missing file", filepath.Join(dir, "none.json"), ok, "--baseline:", true},
		{"bad file", bad, ok, "--baseline:", true},
		{"good", good, ok, "", false},
		{"a gate no timeline decides", good, GateOptions{Exprs: []string{"p90<+10%"}, Alpha: 0.05, Undecided: "fail"},
			`--gate "p90<+10%": one run is judged on its per-second figures and the timeline carries no per-second p90`, true},
		{"mean against an older baseline", old, GateOptions{Exprs: []string{"avg<+1ms"}, Alpha: 0.05, Undecided: "fail"},
			"the baseline's timeline carries no per-second mean", true},
		{"p95 against an older baseline", old, GateOptions{Exprs: []string{"p95<+10%"}, Alpha: 0.05, Undecided: "fail"},
			"run the baseline again", true},
		{"mean", current, GateOptions{Exprs: []string{"mean<+1ms"}, Alpha: 0.05, Undecided: "fail"}, "", false},
		{"p95", current, GateOptions{Exprs: []string{"p95<+1ms"}, Alpha: 0.05, Undecided: "fail"}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := LoadBaseline(c.file, c.o)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one with %q", err, c.wantErr)
				}
				return
			}
			if err != nil || (b == nil) != c.wantNil {
				t.Fatalf("LoadBaseline = %v, %v", b, err)
			}
			if b != nil && (len(b.Gates) != 1 || b.File != c.file || b.Opts.Alpha != c.o.Alpha) {
				t.Errorf("LoadBaseline = %+v", b)
			}
		})
	}
}

// TestSettingsOptions checks the comparison's settings: each error names
// its option, in the order the options are checked.
func TestSettingsOptions(t *testing.T) {
	good := Settings{Test: "welch", Center: "mean", GateOptions: GateOptions{Exprs: []string{"p99<+10%"}, Alpha: 0.05, Undecided: "pass"}}
	for _, c := range []struct {
		name    string
		edit    func(*Settings)
		wantErr string
	}{
		{"good", func(*Settings) {}, ""},
		{"bad test", func(s *Settings) { s.Test, s.Center = "t", "x" }, "--test: "},
		{"bad center", func(s *Settings) { s.Center = "mode" }, "--center: "},
		{"bad alpha", func(s *Settings) { s.Alpha = 0 }, "--alpha: "},
		{"bad gate", func(s *Settings) { s.Exprs = []string{"nonsense"} }, "--gate: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := good
			c.edit(&s)
			o, err := s.Options()
			if c.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || o.Test != Welch || o.Center != Mean || o.Alpha != 0.05 || o.Undecided != UndecidedPass || len(o.Gates) != 1 {
				t.Errorf("Options() = %+v, %v", o, err)
			}
		})
	}
}
