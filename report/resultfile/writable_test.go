package resultfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "exists.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join(dir, "sub-missing", "x.json"), link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string // want: "" for ok, else a part of the error
	}{
		{"new file in a folder", filepath.Join(dir, "new.html"), ""},
		{"existing file", file, ""},
		{"special file", os.DevNull, ""},
		{"stdout", "/dev/stdout", ""},
		{"missing folder", "/nonexistent/x.html", "/nonexistent"},
		{"folder is a file", filepath.Join(file, "x.html"), "not a folder"},
		{"a folder", dir, "is a directory"},
		{"link into a missing folder", link, "sub-missing"},
		{"relative name", "x-in-cwd.html", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckWritable(tt.path)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("CheckWritable(%q) = %v, want ok", tt.path, err)
			case tt.want != "" && err == nil:
				t.Fatalf("CheckWritable(%q) passed, want an error with %q", tt.path, tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Fatalf("CheckWritable(%q) = %v, want %q in it", tt.path, err, tt.want)
			}
		})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("the check left files behind: %v", entries)
	}
}
