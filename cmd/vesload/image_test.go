package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/resultfile"
)

// buildahPaths returns buildah and skopeo, or skips (fails when
// VESLOAD_REQUIRE_BUILDAH=1, as CI sets it).
func buildahPaths(t *testing.T) (buildah, skopeo string) {
	t.Helper()
	b, errB := exec.LookPath("buildah")
	s, errS := exec.LookPath("skopeo")
	if errB == nil && errS == nil {
		return b, s
	}
	if os.Getenv("VESLOAD_REQUIRE_BUILDAH") == "1" {
		t.Fatal("buildah and skopeo are required (VESLOAD_REQUIRE_BUILDAH=1) but not installed: apt-get install buildah skopeo")
	}
	t.Skip("buildah or skopeo not installed (apt-get install buildah skopeo); skipping the image check")
	return "", ""
}

// TestImage builds the image as `make image` does (a static binary,
// scripts/image.sh, Containerfile), reads the archive back with skopeo,
// and runs vesload inside it for 2 s against the built-in emulator.
func TestImage(t *testing.T) {
	t.Parallel()
	buildah, skopeo := buildahPaths(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr)
		}
		return string(out)
	}
	bin := filepath.Join(dir, "vesload")
	archive := filepath.Join(dir, "vesload-image.tar")
	// As `make build` builds it, so that its build cache serves.
	run("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version=imagetest", "-o", bin, "./cmd/vesload")
	run("bash", "scripts/image.sh", bin, "vesload:imagetest", archive, "imagetest")

	var cfg struct {
		Config struct {
			User       string
			Entrypoint []string
			Labels     map[string]string
		} `json:"config"`
	}
	if err := json.Unmarshal([]byte(run(skopeo, "inspect", "--config", "oci-archive:"+archive)), &cfg); err != nil {
		t.Fatal(err)
	}
	c := cfg.Config
	if c.User != "65532:65532" || len(c.Entrypoint) != 1 || filepath.Base(c.Entrypoint[0]) != "vesload" ||
		c.Labels["org.opencontainers.image.version"] != "imagetest" || c.Labels["org.opencontainers.image.source"] == "" {
		t.Fatalf("image config %+v: want user 65532, entrypoint vesload, version and source labels", c)
	}

	store := t.TempDir()
	bh := []string{"--root", filepath.Join(store, "root"), "--runroot", filepath.Join(store, "run"), "--storage-driver", "vfs"}
	ctr := strings.TrimSpace(run(buildah, append(bh, "from", "--quiet", "oci-archive:"+archive)...))
	defer exec.Command(buildah, append(bh, "rm", ctr)...).Run()
	out := run(buildah, append(bh, "run", "--isolation", "chroot", ctr, "--", c.Entrypoint[0], "-rps", "10", "-duration", "2s", "-o", "-")...)
	res, err := resultfile.Decode(strings.NewReader(out), "image run")
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests.OK != 20 || res.Requests.Scheduled != 20 || res.Tool.Version != "imagetest" {
		t.Fatalf("run in the image: %+v version %q, want 20 scheduled and ok by version imagetest", res.Requests, res.Tool.Version)
	}
}
