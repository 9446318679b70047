package main

import (
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestHostileLabelsEscaped: labels and names read from result files
// reach the terminal escaped in report, compare and trend, whatever the
// rendering or error line: no colour, screen clear or right-to-left
// override a file carries is obeyed.
func TestHostileLabelsEscaped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	evil := "\x1b[31m\x1b[2J\u202e\a\x9b"
	var paths []string
	for i := range 4 {
		r := cliResult(t, 10+float64(i), uint64(i+1), cliStart.Add(time.Duration(i)*time.Hour))
		r.Config.Labels = map[string]string{"build": "1." + string(rune('0'+i)) + evil, "who" + evil: evil}
		r.Config.Profile = "p" + evil
		r.Warnings = []string{"w" + evil}
		paths = append(paths, writeCLIResult(t, dir, "r"+string(rune('0'+i))+".json", r))
	}
	tests := []struct {
		name string
		run  func([]string, io.Writer, io.Writer) int
		args []string
		// shown: the rendering names a label or profile, escaped
		shown bool
	}{
		{"report text", runReport, []string{paths[0]}, true},
		{"report markdown", runReport, []string{paths[0], "--format", "markdown"}, true},
		{"compare text", runCompare, []string{paths[0], paths[1], "--vs", paths[2], paths[3], "--gate", "p99<+1%"}, false},
		{"compare markdown", runCompare, []string{paths[0], paths[1], "--vs", paths[2], paths[3], "--format", "markdown"}, false},
		{"compare gates on stderr", runCompare, []string{paths[0], paths[1], "--vs", paths[2], paths[3], "--gate", "p99<+1%", "--format", "json"}, false},
		{"trend text", runTrend, append([]string{"--by", "build"}, paths...), true},
		{"trend markdown", runTrend, append([]string{"--by", "build", "--format", "markdown"}, paths...), true},
	}
	for _, tc := range tests {
		_, out, errs := cliRun(tc.run, tc.args...)
		for stream, text := range map[string]string{"stdout": out, "stderr": errs} {
			for text != "" {
				r, n := utf8.DecodeRuneInString(text)
				text = text[n:]
				if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError && n == 1 || r >= 0x202a && r <= 0x202e) {
					t.Errorf("%s: %s writes %U raw:\n%s", tc.name, stream, r, out+errs)
					break
				}
			}
		}
		if tc.shown && !strings.Contains(out+errs, `\x1b`) {
			t.Errorf("%s: the escaped label is not shown:\n%s%s", tc.name, out, errs)
		}
	}
}
