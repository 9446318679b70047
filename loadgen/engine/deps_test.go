package engine

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// protocolPackages are the protocol clients the engine must not link
// (docs/ARCHITECTURE.md, "Transport"): the caller builds the transport and
// hands it over in Config.Transport. A prefix names a module or a tree.
var protocolPackages = []string{
	"github.com/valyala/fasthttp",
	"github.com/vesload/vesload/loadgen/transport/rest",
	"github.com/vesload/vesload/loadgen/transport/hv",
}

// TestEngineLinksNoProtocol lists what the engine package links, as
// `go list -deps` does for the built binary, and fails on any protocol
// client, naming the package that imports it.
func TestEngineLinksNoProtocol(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the engine's packages: %v", err)
	}
	cmd := exec.Command(goBin, "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, ".")
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
	if len(lines) < 20 || !strings.HasPrefix(lines[len(lines)-1], "github.com/vesload/vesload/loadgen/engine ") {
		t.Fatalf("go list listed %d packages, the last not the engine:\n%s", len(lines), out)
	}
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, " ")
		if histogramEncoders[pkg] {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			for _, banned := range protocolPackages {
				if imp == banned || strings.HasPrefix(imp, banned+"/") {
					t.Errorf("the engine links %s (imported by %s): protocols belong to transports the caller builds", imp, pkg)
				}
			}
		}
	}
}

// outputPackages are the outputs that read the engine's per-second
// snapshots (docs/ARCHITECTURE.md, "Observers"), each with its
// subpackages: every package of loadgen/output.
var outputPackages = []string{"../output/..."}

// histogramEncoders are the packages of loadgen/output that encode a
// histogram they are handed in HdrHistogram's own interval-log format,
// which takes the library's types and its header writer: they encode, they
// build none.
var histogramEncoders = map[string]bool{"github.com/vesload/vesload/loadgen/output/hdrlog": true}

// TestOutputsImportNoHistogram: one place builds each second's
// histograms, the timeline; the outputs read or merge the Tallies it
// hands them through their methods and never import hdrhistogram-go, in
// their code or their tests, so none can build a latency histogram of
// its own.
func TestOutputsImportNoHistogram(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the outputs' imports: %v", err)
	}
	args := append([]string{"list", "-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`}, outputPackages...)
	out, err := exec.Command(goBin, args...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 4 {
		t.Fatalf("go list listed %d packages, want at least the four outputs (dashboard, influx, metrics, observe):\n%s", len(lines), out)
	}
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, " ")
		if histogramEncoders[pkg] {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, "github.com/HdrHistogram/") {
				t.Errorf("%s imports %s: an output reads the histograms of the engine's seconds, it builds none", pkg, imp)
			}
		}
	}
}
