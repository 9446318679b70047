package testserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemaDirNotice: the line the emulator starts with says why a
// schema directory is not used, in the words of what is wrong with it.
func TestSchemaDirNotice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "passwd")
	if err := os.WriteFile(file, []byte("root:x:0:0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ dir, want string }{
		{filepath.Join(dir, "missing"), "schema directory " + filepath.Join(dir, "missing") + " not found: "},
		{file, "schema directory " + file + " is not a directory: "},
		{"", "validation: no schema directory: "},
	}
	for _, tt := range tests {
		s, err := Options{SchemaDir: tt.dir}.normalise()
		if err != nil {
			t.Fatalf("%q: %v", tt.dir, err)
		}
		if !strings.Contains(s.notice, tt.want) {
			t.Errorf("--schema-dir %q: notice %q, want %q", tt.dir, s.notice, tt.want)
		}
	}
}
