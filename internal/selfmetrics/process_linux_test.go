package selfmetrics

import "testing"

func TestParseStat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string
		want      stat
		ok        bool
	}{
		{"plain", "42 (vesload) S 1 42 42 0 -1 4194560 100 0 0 0 150 25 0 0 20 0 9 0 12345 1263861760 5529 18446744073709551615",
			stat{utime: 150, stime: 25, starttime: 12345, vsize: 1263861760, rss: 5529}, true},
		{"name with blanks and parentheses", "42 (a) b (c)) R 1 42 42 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 3 4 5",
			stat{utime: 1, stime: 2, starttime: 3, vsize: 4, rss: 5}, true},
		{"truncated", "42 (x) S 1 2 3", stat{}, false},
		{"no name", "42 x S", stat{}, false},
		{"not a number", "42 (x) S 1 42 42 0 -1 0 0 0 0 0 x 2 0 0 20 0 1 0 3 4 5", stat{}, false},
	}
	for _, tt := range tests {
		got, ok := parseStat([]byte(tt.raw))
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("%s: %+v, %v; want %+v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
