package suggest

import (
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	t.Parallel()
	keys := []string{"rps", "duration", "pool_wait", "pool", "timeout"}
	tests := []struct {
		word, want string
	}{
		{"duraton", "duration"},
		{"poolWait", "pool_wait"},
		{"pool-wait", "pool_wait"},
		{"rpss", "rps"},
		{"RPS", "rps"},
		{"tmeout", "timeout"},
		{"xyz", ""},
		{"concurrency", ""},
		{"", ""},
		{strings.Repeat("a", 65), ""},
	}
	for _, tt := range tests {
		if got := Nearest(tt.word, keys); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
	if got := Nearest("rps", nil); got != "" {
		t.Errorf("Nearest with no candidates = %q", got)
	}
}

// Two neighbours swapped are one typo, as an extra or missing letter is.
func TestNearestTransposition(t *testing.T) {
	t.Parallel()
	tests := []struct{ word, want string }{
		{"rsp", "rps"},
		{"druation", "duration"},
		{"duraton", "duration"},
		{"rsps", "rps"},
		{"srpd", ""},
		{"xyz", ""},
	}
	for _, tt := range tests {
		if got := Nearest(tt.word, []string{"rps", "duration", "output"}); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}
