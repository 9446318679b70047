package main

import (
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
// the little vesload needs of them. Tests may still use them.
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
}

// goListDeps lists the packages pkg links, itself included.
func goListDeps(t *testing.T, pkg string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the binary's packages: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", pkg).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr)
	}
	return strings.Fields(string(out))
}

// TestBinaryLinksNoHeavyModules fails when a package of one of
// heavyModules comes back into vesload's binary. The protobuf wire
// encoding (protowire, and what it needs) is the exception: the HV-VES
// producer encodes its messages with it.
func TestBinaryLinksNoHeavyModules(t *testing.T) {
	t.Parallel()
	allowed := map[string]bool{}
	for _, p := range goListDeps(t, "google.golang.org/protobuf/encoding/protowire") {
		allowed[p] = true
	}
	deps := goListDeps(t, ".")
	if len(deps) < 50 {
		t.Fatalf("go list found only %d packages: %v", len(deps), deps)
	}
	for _, p := range deps {
		if allowed[p] {
			continue
		}
		for _, m := range heavyModules {
			if p == m || strings.HasPrefix(p, m+"/") {
				t.Errorf("vesload links %s (module %s): it must not, for the binary's size and resident memory (issue 14); "+
					"use internal/promtext, internal/selfmetrics or the standard library", p, m)
			}
		}
	}
}
