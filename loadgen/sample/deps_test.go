package sample

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// procModules are the modules vesload's Linux binary must not link:
// gopsutil and prometheus/procfs, and what gopsutil brings with it. Most
// of vesload's resident memory under load is pages of its own binary, and
// the kernel maps them around every package that runs code or init, so
// each of these raised the generator's RSS at 5,000 requests/s above its
// peers' (issue 14). On Linux the samplers read /proc through procFS; the
// other systems keep gopsutil behind build tags.
var procModules = []string{
	"github.com/shirou/gopsutil",
	"github.com/prometheus/procfs",
	"github.com/tklauser/go-sysconf",
	"github.com/tklauser/numcpus",
	"github.com/go-ole/go-ole",
	"github.com/ebitengine/purego",
	"github.com/yusufpapurcu/wmi",
	"github.com/lufia/plan9stats",
	"github.com/power-devops/perfstat",
}

// leavingModules import procModules but are on their way out of the
// binary: the Prometheus client library's process collector links
// prometheus/procfs, and the client library itself is being replaced by
// internal/promtext (cmd/vesload's deps test keeps it out once gone).
var leavingModules = []string{"github.com/prometheus/client_golang"}

// inModule reports whether package p belongs to one of modules.
func inModule(p string, modules []string) (string, bool) {
	for _, m := range modules {
		if p == m || strings.HasPrefix(p, m+"/") {
			return m, true
		}
	}
	return "", false
}

// TestLinuxBinaryLinksNoProcModules lists the packages of the Linux
// binary, as it is built (CGO_ENABLED=0), and fails when one of
// procModules comes back, naming who imports it.
func TestLinuxBinaryLinksNoProcModules(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the binary's packages: %v", err)
	}
	cmd := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}",
		"github.com/vesload/vesload/cmd/vesload")
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list -deps: %v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 50 {
		t.Fatalf("go list found only %d packages:\n%s", len(lines), out)
	}
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, " ")
		if _, own := inModule(pkg, procModules); own {
			continue // reported at its importer
		}
		for _, imp := range strings.Fields(imports) {
			m, ok := inModule(imp, procModules)
			if !ok {
				continue
			}
			if _, later := inModule(pkg, leavingModules); later {
				t.Logf("%s still links %s; it goes with its module", pkg, imp)
				continue
			}
			t.Errorf("the Linux binary links %s (module %s), imported by %s: it must not, for vesload's resident memory (issue 14); "+
				"read /proc with loadgen/sample's procFS instead", imp, m, pkg)
		}
	}
}
