package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	spin := "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantLine bool   // the figures are written
		wantErr  string // on standard error
	}{
		{"exit code", []string{"/bin/sh", "-c", spin + "; exit 3"}, 3, true, ""},
		{"killed by a signal", []string{"/bin/sh", "-c", "kill -TERM $$"}, 128 + 15, true, ""},
		{"command's flags are its own", []string{"/bin/sh", "-c", "exit 0", "-o", "x"}, 0, true, ""},
		{"no command", nil, 2, false, "usage: cputime"},
		{"unknown flag", []string{"--bogus", "/bin/sh"}, 2, false, "unknown flag: --bogus"},
		{"not found", []string{"/nonexistent/tool"}, 1, false, "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "time")
			var stderr bytes.Buffer
			code := run(append([]string{"-o", out}, tc.args...), &stderr)
			if code != tc.wantCode || !strings.Contains(stderr.String(), tc.wantErr) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.wantCode, tc.wantErr)
			}
			b, err := os.ReadFile(out)
			if !tc.wantLine {
				if err == nil {
					t.Errorf("wrote %q, want no figures", b)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f := strings.Fields(string(b))
			if len(f) != 3 {
				t.Fatalf("figures %q, want USER_S SYS_S MAXRSS_KIB", b)
			}
			user, err1 := strconv.ParseFloat(f[0], 64)
			sys, err2 := strconv.ParseFloat(f[1], 64)
			rss, err3 := strconv.Atoi(f[2])
			if err1 != nil || err2 != nil || err3 != nil || user < 0 || sys < 0 || rss <= 0 {
				t.Errorf("figures %q: want two CPU times and a positive peak RSS", b)
			}
			if tc.name == "exit code" && user+sys <= 0 {
				t.Errorf("figures %q: a shell that counted to 100,000 used no CPU", b)
			}
		})
	}
}
