package outputs

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/leaktest"
)

func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }

// TestTable: every entry's key is a flag its values register, turns the
// output on, and is listed once; every entry's docs line is in
// README.md's list of outputs.
func TestTable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range Table() {
		if seen[e.Flag] {
			t.Errorf("--%s: two entries", e.Flag)
		}
		seen[e.Flag] = true
		f := e.New()
		fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
		f.Add(fs)
		if fs.Lookup(e.Flag) == nil {
			t.Errorf("--%s: not among the flags its values register", e.Flag)
			continue
		}
		if f.Enabled() {
			t.Errorf("--%s: on without its flag", e.Flag)
		}
		if !strings.Contains(string(readme), "\n- "+e.Doc+"\n") {
			t.Errorf("--%s: README.md does not list %q", e.Flag, e.Doc)
		}
	}
	if len(seen) == 0 {
		t.Fatal("no output in the table")
	}
}
