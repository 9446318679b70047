package observe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
)

// TestOpenStreams: the files are created before the run (an unwritable
// path is an error naming its option), each stream gets an observer, and
// Close reports nothing for streams that wrote everything.
func TestOpenStreams(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name      string
		jtl, hdr  string
		observers int
		wantErr   string
	}{
		{"none", "", "", 0, ""},
		{"both", filepath.Join(dir, "a.jtl"), filepath.Join(dir, "a.hlog"), 2, ""},
		{"JTL only", filepath.Join(dir, "b.jtl"), "", 1, ""},
		{"JTL in a missing folder", filepath.Join(dir, "nope", "c.jtl"), "", 0, "--jtl: "},
		{"log in a missing folder", filepath.Join(dir, "d.jtl"), filepath.Join(dir, "nope", "d.hlog"), 0, "--hdr-log: "},
	}
	for _, tt := range tests {
		s, err := OpenStreams(Stream{"--jtl", tt.jtl}, Stream{"--hdr-log", tt.hdr}, "http://127.0.0.1:1/eventListener/v7", time.Now())
		if tt.wantErr != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, want an error beginning %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		obs := s.Observers("post", nil)
		if len(obs) != tt.observers {
			t.Errorf("%s: %d observers, want %d", tt.name, len(obs), tt.observers)
		}
		for _, o := range obs {
			o.Request(&engine.RequestEvent{Outcome: "ok", Code: 202})
		}
		if w := s.Close(); len(w) != 0 {
			t.Errorf("%s: warnings %q", tt.name, w)
		}
		if tt.jtl != "" {
			if b, err := os.ReadFile(tt.jtl); err != nil || strings.Count(string(b), "\n") != 2 {
				t.Errorf("%s: the JTL holds %q (%v), want a header and one row", tt.name, b, err)
			}
		}
	}
}
