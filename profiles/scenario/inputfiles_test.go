package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckInputFiles checks that a missing file or a folder is refused
// with its option's name, and an empty path is skipped.
func TestCheckInputFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "body.json")
	if err := os.WriteFile(file, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		files   []InputFile
		wantErr string
	}{
		{"none", nil, ""},
		{"empty path", []InputFile{{Option: "--key"}}, ""},
		{"a file", []InputFile{{Option: "--body-file", Path: file}}, ""},
		{"missing", []InputFile{{Option: "--body-file", Path: file}, {Option: "--cacert", Path: filepath.Join(dir, "none.pem")}}, "--cacert: "},
		{"a folder", []InputFile{{Option: "--data-file", Path: dir}}, "--data-file " + dir + ": is a folder, want a file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckInputFiles(c.files...)
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), c.wantErr)) {
				t.Errorf("CheckInputFiles = %v, want %q", err, c.wantErr)
			}
		})
	}
}
