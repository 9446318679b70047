package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// heavyModules are modules the binary must not link. The Prometheus
// client libraries, and through them the protobuf runtime, a JSON codec
// and their helpers, made up a large share of the binary; the kernel maps
// the pages around every package that runs code or init, so they also
// raised the generator's resident memory above its peers' at 5,000
// requests/s (issue 14). internal/promtext and internal/selfmetrics do
// the little vesload needs of them. The same holds for gopsutil and
// prometheus/procfs with what they bring: on Linux the samplers read /proc
// through internal/proc, and the other systems keep gopsutil behind build
// tags. Tests may still use them all.
var heavyModules = []string{
	"github.com/prometheus/client_golang",
	"github.com/prometheus/client_model",
	"github.com/prometheus/common",
	"github.com/json-iterator/go",
	"github.com/modern-go/reflect2",
	"github.com/modern-go/concurrent",
	"github.com/cespare/xxhash",
	"github.com/beorn7/perks",
	"github.com/munnerz/goautoneg",
	"google.golang.org/protobuf",
	"github.com/shirou/gopsutil",
	"github.com/prometheus/procfs",
	"github.com/tklauser/go-sysconf",
	"github.com/tklauser/numcpus",
	"github.com/go-ole/go-ole",
	"github.com/ebitengine/purego",
	"github.com/yusufpapurcu/wmi",
	"github.com/lufia/plan9stats",
	"github.com/power-devops/perfstat",
	// Executing a template looks methods up by name through reflection,
	// which keeps the linker from dropping any exported method of any
	// type: the binary was a fifth larger with report/html on
	// html/template. report/html writes its page by hand.
	"text/template",
	"html/template",
}

// goListDeps lists the packages pkg links on Linux as `make build` builds
// it (CGO_ENABLED=0), itself included, each with the packages it imports.
func goListDeps(t *testing.T, pkg string) map[string][]string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the binary's packages: %v", err)
	}
	cmd := exec.Command(goBin, "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, pkg)
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		p, imports, _ := strings.Cut(line, " ")
		deps[p] = strings.Fields(imports)
	}
	return deps
}

// heavyModule is the module of heavyModules that package p belongs to.
func heavyModule(p string) (string, bool) {
	for _, m := range heavyModules {
		if p == m || strings.HasPrefix(p, m+"/") {
			return m, true
		}
	}
	return "", false
}

// TestBinaryLinksNoHeavyModules fails when a package of one of
// heavyModules comes back into vesload's binary. The protobuf wire
// encoding (protowire, and what it needs) is the exception: the HV-VES
// producer encodes its messages with it.
func TestBinaryLinksNoHeavyModules(t *testing.T) {
	t.Parallel()
	allowed := goListDeps(t, "google.golang.org/protobuf/encoding/protowire")
	deps := goListDeps(t, ".")
	if len(deps) < 50 {
		t.Fatalf("go list found only %d packages", len(deps))
	}
	for p, imports := range deps {
		if _, heavy := heavyModule(p); heavy {
			continue // reported at its importer
		}
		for _, imp := range imports {
			if _, ok := allowed[imp]; ok {
				continue
			}
			if m, heavy := heavyModule(imp); heavy {
				t.Errorf("%s imports %s (module %s): vesload must not link it, for the binary's size and resident memory (issue 14); "+
					"see docs/ARCHITECTURE.md, \"Footprint\"", p, imp, m)
			}
		}
	}
}
