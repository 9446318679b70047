package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestVerboseLogsFirstFailure runs the binary against the built-in
// emulator with a body it refuses: -v shows the first refused exchange
// once, request and answer, the password hidden; without -v nothing.
func TestVerboseLogsFirstFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	pad := strings.Repeat("x", 3000) // the body is cut to 2 KiB
	if err := os.WriteFile(bad, []byte(`{"event":{"commonEventHeader":{"domain":"fault","eventId":"{{.EventID}}","pad":"`+pad+`"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("Pa55-verbose\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		flags []string
		want  int // "first http_400 exchange:" lines
	}{
		{"verbose", []string{"-v"}, 1},
		{"long flag", []string{"--verbose"}, 1},
		{"quiet by default", nil, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"--rps", "20", "--duration", "1s", "-q", "--body-file", bad, "--user", "ves", "--password-file", pw}, tt.flags...)
			o := vesload(t, time.Minute, args...)
			if n := strings.Count(o.stderr, "first http_400 exchange:"); n != tt.want {
				t.Fatalf("stderr has %d first-failure logs, want %d\n%s", n, tt.want, o.stderr)
			}
			if strings.Contains(o.stderr, "Pa55-verbose") || strings.Contains(o.stdout, "Pa55-verbose") {
				t.Errorf("the password is shown\n%s", o.stderr)
			}
			if tt.want == 0 {
				return
			}
			for _, w := range []string{"> POST /eventListener/v7 HTTP/1.1", "> Authorization: xxxxx", "> Content-Type: application/json", "< HTTP/1.1 400", `"messageId":"SVC`, "bytes in all)"} {
				if !strings.Contains(o.stderr, w) {
					t.Errorf("stderr lacks %q\n%s", w, o.stderr)
				}
			}
			if strings.Contains(o.stderr, pad[:2100]) {
				t.Errorf("the request body is not cut to 2 KiB")
			}
		})
	}
}
