package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/profiles"
)

func TestCheckFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const head = "name: t\ntarget:\n  url: http://${HOST}:8080/eventListener/v7\nload:\n  rps: 1\n  duration: 1s\n"
	good := write("good.yaml", head)
	badYAML := write("bad.yaml", head+"nope: 1\n")
	noBody := write("nobody.yaml", head+"requests:\n  - body_file: missing.json\n")
	write("bad.json", `{"event": ${TENANT`)
	badBody := write("badbody.yaml", head+"requests:\n  - body_file: bad.json\n")
	tests := []struct {
		path     string
		line     string // "" when an error is wanted
		fileErr  bool   // a *FileError rather than the loader's error
		contains string
	}{
		{good, "ok  " + good + " (before a run, set HOST with --url or --set HOST=…)", false, ""},
		{"ves-50rps-10m", "ok  ves-50rps-10m", false, ""},
		{badYAML, "", false, "bad.yaml:7:1"},
		{noBody, "", true, "nobody.yaml: read body file: "},
		{badBody, "", true, "badbody.yaml: "},
	}
	for _, tt := range tests {
		line, err := CheckFile(tt.path)
		if tt.line != "" {
			if err != nil || line != tt.line {
				t.Errorf("CheckFile(%s) = %q, %v; want %q", tt.path, line, err, tt.line)
			}
			continue
		}
		var fe *FileError
		var pe *profiles.Error
		switch {
		case err == nil:
			t.Errorf("CheckFile(%s) = %q, want an error", tt.path, line)
		case errors.As(err, &fe) != tt.fileErr:
			t.Errorf("CheckFile(%s): %T %v, want a *FileError: %v", tt.path, err, err, tt.fileErr)
		case !tt.fileErr && !errors.As(err, &pe):
			t.Errorf("CheckFile(%s): %T %v, want the loader's *profiles.Error", tt.path, err, err)
		case !strings.Contains(err.Error(), tt.contains):
			t.Errorf("CheckFile(%s): %v, want %q", tt.path, err, tt.contains)
		case Positioned(err) == tt.fileErr:
			t.Errorf("CheckFile(%s): Positioned(%v) = %v, want %v", tt.path, err, tt.fileErr, !tt.fileErr)
		}
	}
}
