package html

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/compare"
)

// chromiumPath is where Debian's chromium package installs the browser.
const chromiumPath = "/usr/bin/chromium"

// needChromium skips the test when Chromium is not installed, unless
// VESLOAD_REQUIRE_CHROMIUM=1 (CI) makes its absence a failure.
func needChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("VESLOAD_REQUIRE_CHROMIUM") == "1" {
			t.Fatalf("VESLOAD_REQUIRE_CHROMIUM=1 but %s is missing: install Debian's chromium package", chromiumPath)
		}
		t.Skipf("%s not found: install Debian's chromium package to render the HTML report in a real browser", chromiumPath)
	}
}

// chromium runs headless Chromium on page with extra arguments, isolated
// from the network and from any user profile, within a time limit.
func chromium(t *testing.T, page string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(),
	}
	cmd := exec.CommandContext(ctx, chromiumPath, append(append(base, args...), "file://"+page)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.Bytes()
}

func TestChromiumRendersPages(t *testing.T) {
	needChromium(t)
	a, b := abRuns(t)
	cmp, err := compare.Compare(a, b, compare.Options{NameA: "dmaap", NameB: "cambria"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pages := []struct {
		name   string
		write  func(*bytes.Buffer) error
		charts int
	}{
		{"report.html", func(w *bytes.Buffer) error { return Report(w, sampleResult(t)) }, 5},
		{"comparison.html", func(w *bytes.Buffer) error { return Comparison(w, cmp, a, b) }, 2},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := p.write(&buf); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, p.name)
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}

			dom := string(chromium(t, path, "--dump-dom"))
			if n := strings.Count(dom, "<svg"); n != p.charts {
				t.Errorf("the browser's DOM holds %d SVG charts, want %d", n, p.charts)
			}
			// Every chart was parsed into drawing elements, and the page
			// was read to its end.
			if strings.Count(dom, "<path") < p.charts || !strings.Contains(dom, "</footer>") {
				t.Errorf("DOM lacks chart paths or the footer:\n%.2000s", dom)
			}

			shot := filepath.Join(dir, strings.TrimSuffix(p.name, ".html")+".png")
			chromium(t, path, "--screenshot="+shot, "--window-size=1280,4000")
			checkScreenshot(t, shot)
		})
	}
}

// checkScreenshot fails unless shot is a 1280-pixel-wide PNG with
// enough distinct colours to hold text and charts rather than a blank
// or error page.
func checkScreenshot(t *testing.T, shot string) {
	t.Helper()
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() < 1000 {
		t.Errorf("screenshot is %v, want 1280 wide and tall", b)
	}
	if n := colours(img, 4); n < 50 {
		t.Errorf("screenshot has %d colours: the page looks blank", n)
	}
}

// colours counts the distinct colours of every step-th pixel.
func colours(img image.Image, step int) int {
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	return len(seen)
}
