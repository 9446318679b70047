package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
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

// TestReadmeABRecipeServeFails runs the README's A/B section with a serve
// that cannot start: its port taken by another listener, or no vesload on
// PATH. The recipe must stop at once with the serve's error, not wait for
// an announcement that never comes.
func TestReadmeABRecipeServeFails(t *testing.T) {
	script := readmeBlock(t, "### A/B: DMaaP client vs Cambria client")
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	takenPort := taken.Addr().(*net.TCPAddr).Port
	withBinary := filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, tc := range []struct {
		name, path string
		cambria    int
		want       string
	}{
		{"port taken", withBinary, takenPort, "vesload serve --preset cambria did not start"},
		{"no binary on PATH", os.Getenv("PATH"), freePort(t), "did not start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path == os.Getenv("PATH") {
				if p, err := exec.LookPath("vesload"); err == nil {
					t.Skipf("a vesload is on PATH (%s)", p)
				}
			}
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-e", "-c", script)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+tc.path, "AB_DURATION=2s",
				fmt.Sprintf("CAMBRIA_PORT=%d", tc.cambria), fmt.Sprintf("DMAAP_PORT=%d", freePort(t)))
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			if ctx.Err() != nil {
				t.Fatalf("the recipe still waited after %v for a serve that cannot start\nstderr:\n%s", took, errb.String())
			}
			if err == nil {
				t.Fatalf("the recipe succeeded with a serve that cannot start\nstdout:\n%s", out.String())
			}
			// The wait gives a serve 10 s to announce itself; one that
			// exits is seen well before.
			if took > 15*time.Second {
				t.Errorf("the recipe took %v to fail", took)
			}
			if !strings.Contains(errb.String(), tc.want) {
				t.Errorf("stderr does not say %q:\n%s", tc.want, errb.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "cambria-1.json")); err == nil {
				t.Errorf("a run started against a serve that did not start")
			}
		})
	}
}
