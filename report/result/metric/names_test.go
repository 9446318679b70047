package metric_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result/metric"
)

// spelling is one way of writing a metric's name; alias tells the other
// spellings (p(99.9)) from the canonical name.
type spelling struct {
	name  string
	alias bool
}

// spelled lists every name and alias of the registry.
func spelled() []spelling {
	var names []spelling
	for _, m := range metric.All() {
		names = append(names, spelling{m.Name, false})
		for _, a := range m.Aliases {
			names = append(names, spelling{a, true})
		}
	}
	return names
}

// namesMetric tells whether the string literal s names a metric of the
// registry: a qualified name (one with a "." or "_": hv.received,
// error_rate, e2e_p99) standing alone, or any name at the start of a gate
// expression ("ok>0"). A bare word such as "sent", "ok" or "p99" alone is
// also a column's heading, a JSON key and a row's label of the documented
// renderings, so it is not taken for the metric.
func namesMetric(s string, names []spelling) (string, bool) {
	for _, n := range names {
		if s == n.name && !n.alias && strings.ContainsAny(n.name, "._") {
			return n.name, true
		}
		if rest, ok := strings.CutPrefix(s, n.name); ok && rest != "" && strings.ContainsAny(rest[:1], "<>=!") {
			return n.name, true
		}
	}
	return "", false
}

// TestReportNamesNoMetric fails when a Go file of report/ outside
// report/result spells out a metric's name: gates, comparisons, trends,
// verdicts and renderings read the registry, so that a protocol's metrics
// are declared once, here. Test files and report/internal, the fixtures
// only tests import, may name metrics: they are the users' expressions.
func TestReportNamesNoMetric(t *testing.T) {
	t.Parallel()
	names := spelled()
	root := filepath.Join("..", "..")
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || path == filepath.Join(root, "result") || path == filepath.Join(root, "internal") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		imports := map[*ast.BasicLit]bool{}
		for _, im := range f.Imports {
			imports[im.Path] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || imports[lit] {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if name, ok := namesMetric(s, names); ok {
				t.Errorf("%s: %s names the metric %s: read it from report/result/metric", fset.Position(lit.Pos()), lit.Value, name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d Go files read under report/: the walk missed the tree", files)
	}
}

// TestNamesMetric holds the rule the walk applies, so that it cannot
// pass by matching nothing.
func TestNamesMetric(t *testing.T) {
	t.Parallel()
	names := spelled()
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"hv.received", true},
		{"delivery.delivered", true},
		{"error_rate", true},
		{"e2e_p99", true},
		{"p(99.9)", false},
		{"ok>0", true},
		{"hv.disconnected==0", true},
		{"p99<500ms", true},
		{"ok", false},
		{"sent", false},
		{"p99", false},
		{"hv.", false},
		{"latency_ms.p99", false},
		{"okay", false},
	} {
		if _, got := namesMetric(tc.s, names); got != tc.want {
			t.Errorf("namesMetric(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
