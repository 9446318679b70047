package files

import (
	"os"
	"path/filepath"
	"testing"
)

// TestIsCapacityReadsTheHeadOnly: the kind of a document comes from its
// top-level schema, wherever it stands, and a device that never ends or a
// file that is no JSON object is simply not one, read no further than
// peekLimit.
func TestIsCapacityReadsTheHeadOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		path string
		want bool
	}{
		{write("cap.json", `{"schema": "vesload/capacity/v1", "capacity": {}}`), true},
		{write("later.json", `{"tool": {"name": "vesload", "x": [1, {"schema": "no"}]}, "schema": "vesload/capacity/v1"}`), true},
		{write("run.json", `{"schema": "vesload/v1", "requests": {}}`), false},
		{write("nested.json", `{"config": {"schema": "vesload/capacity/v1"}}`), false},
		{write("array.json", `["vesload/capacity/v1"]`), false},
		{write("garbage.json", `not json`), false},
		{"/dev/zero", false},
		{filepath.Join(dir, "missing.json"), false},
	}
	for _, tt := range tests {
		if got := isCapacity(tt.path); got != tt.want {
			t.Errorf("isCapacity(%s) = %v, want %v", filepath.Base(tt.path), got, tt.want)
		}
	}
}
