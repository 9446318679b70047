package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// templatePackages must not be linked: executing a template looks
// methods up by name through reflection, which keeps the linker from
// dropping any exported method of any type (the binary was a fifth larger
// with report/html on html/template). report/html writes its page by hand.
var templatePackages = []string{"text/template", "html/template"}

// ecosystemModules are the libraries vesload's metrics and sampling are
// built on, which the binary must link (docs/ARCHITECTURE.md, "Footprint").
var ecosystemModules = []string{
	"github.com/prometheus/client_golang",
	"github.com/prometheus/common",
	"github.com/shirou/gopsutil/v4",
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

// TestBinaryLinks checks what `make build` links: the ecosystem's
// metrics and process libraries, and no template package.
func TestBinaryLinks(t *testing.T) {
	t.Parallel()
	deps := goListDeps(t, ".")
	if len(deps) < 50 {
		t.Fatalf("go list found only %d packages", len(deps))
	}
	for _, m := range ecosystemModules {
		found := false
		for p := range deps {
			if p == m || strings.HasPrefix(p, m+"/") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("the binary links no package of %s", m)
		}
	}
	for p, imports := range deps {
		for _, imp := range imports {
			if slices.Contains(templatePackages, imp) {
				t.Errorf("%s imports %s: vesload must not link a template package, for the binary's size", p, imp)
			}
		}
	}
}
