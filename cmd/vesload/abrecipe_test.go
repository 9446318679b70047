package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readmeBlock returns the first ```sh block after the README heading.
func readmeBlock(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no heading %q", heading)
	}
	_, block, ok := strings.Cut(after, "```sh\n")
	if !ok {
		t.Fatalf("README.md: no sh block after %q", heading)
	}
	block, _, ok = strings.Cut(block, "```")
	if !ok {
		t.Fatalf("README.md: the sh block after %q does not end", heading)
	}
	return block
}

// TestReadmeABRecipe runs the README's A/B section as written, with the
// runs shortened by AB_DURATION and the emulators on free ports: three
// runs against each preset and one comparison, whose table shows the
// DMaaP-client preset's publish wait as a significant change of about
// its publish time, in ms beside the relative delta.
func TestReadmeABRecipe(t *testing.T) {
	script := readmeBlock(t, "### A/B: DMaaP client vs Cambria client")
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-e", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"AB_DURATION=2s", fmt.Sprintf("CAMBRIA_PORT=%d", freePort(t)), fmt.Sprintf("DMAAP_PORT=%d", freePort(t)))
	// The shell leads a process group of its own, so that a timeout
	// stops the emulators it started with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README's A/B section: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	for i := 1; i <= 3; i++ {
		for _, side := range []string{"cambria", "dmaap"} {
			if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("%s-%d.json", side, i))); err != nil {
				t.Errorf("run %d against %s: %v", i, side, err)
			}
		}
	}
	text := out.String()
	if !strings.Contains(text, "A/B comparison: cambria (3 runs) vs dmaap (3 runs)") {
		t.Fatalf("no comparison of 3 runs a side:\n%s", text)
	}
	m := regexp.MustCompile(`p50 latency \(ms\) .*?([+-]?\d+\.\d+) ms +\+[\d.]+% .* worse`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the p50 row shows no significant change in ms:\n%s", text)
	}
	t.Logf("the README's comparison:\n%s", text)
	change, _ := strconv.ParseFloat(m[1], 64)
	// The preset holds each answer for its publish time; the machine's
	// noise adds or takes a little.
	if change < 1 || change > 10 {
		t.Errorf("p50 change %v ms, want about 2 ms (the dmaap preset's publish time):\n%s", change, text)
	}
}
