package main

import (
	"strings"
	"testing"
)

// module is the import path every package of vesload starts with.
const module = "github.com/vesload/vesload"

// layerRules say which packages must not import which: data flows from a
// run's configuration to the engine, to the result, to its renderings
// (docs/ARCHITECTURE.md, "The pipeline"), so no import runs up a layer.
// A name covers its package and every package below it.
var layerRules = []struct {
	from string
	not  []string
	why  string
}{
	{"report/result", []string{""}, "the result document is the contract every layer reads: a leaf"},
	{"report", []string{"loadgen", "profiles", "session", "testserver", "deploy", "cmd"},
		"renderers read results and never the engine or a run's configuration"},
	{"internal", []string{""}, "helpers under internal serve every layer and know none"},
	{"loadgen", []string{"profiles", "session", "testserver", "deploy", "cmd"},
		"the engine runs a compiled configuration and knows no profile, emulator or command"},
	{"loadgen/engine", []string{"loadgen/output", "loadgen/transport/rest", "loadgen/transport/hv", "loadgen/delivery"},
		"the engine's room holds the engine: outputs, protocols and the delivery follower are rooms beside it that it never enters"},
	{"loadgen/output", []string{"loadgen/transport/rest", "loadgen/transport/hv"},
		"an output reads the engine's snapshots and events, never a protocol"},
	{"testserver", []string{"loadgen", "profiles", "session", "deploy", "cmd"},
		"the emulator shares no code with the generator"},
	{"profiles", []string{"session", "deploy", "cmd"}, "configuration is compiled before a run is wired"},
	{"session", []string{"deploy", "cmd"}, "a run's wiring knows no command line"},
}

// under reports whether pkg is the module's package name or one below it;
// an empty name is the whole module.
func under(pkg, name string) bool {
	if name == "" {
		return pkg == module || strings.HasPrefix(pkg, module+"/")
	}
	p := module + "/" + name
	return pkg == p || strings.HasPrefix(pkg, p+"/")
}

// TestNoImportRunsUpALayer lists every package of the module with what it
// imports (`go list -deps -f '{{.ImportPath}} {{.Imports}}' ./...`) and
// fails on an import that runs against the pipeline, naming both ends.
func TestNoImportRunsUpALayer(t *testing.T) {
	t.Parallel()
	deps := goListDeps(t, module+"/...")
	checked := 0
	for pkg, imports := range deps {
		for _, rule := range layerRules {
			if !under(pkg, rule.from) {
				continue
			}
			checked++
			for _, imp := range imports {
				for _, not := range rule.not {
					if under(imp, not) && !under(imp, rule.from) {
						t.Errorf("%s imports %s: %s", pkg, imp, rule.why)
					}
				}
			}
		}
	}
	if checked < 40 {
		t.Fatalf("only %d packages under the rules: go list did not list the module", checked)
	}
}
