package transport

import "testing"

// TestFirstFailures checks that each class, and each status of http,
// is shown once.
func TestFirstFailures(t *testing.T) {
	t.Parallel()
	var f FirstFailures
	for i, tt := range []struct {
		class Class
		code  int32
		first bool
	}{
		{HTTP, 500, true},
		{HTTP, 500, false},
		{HTTP, 400, true},
		{Timeout, 0, true},
		{Timeout, 0, false},
		{HTTP, 999, true}, // beyond HTTP's statuses: one slot for all
		{HTTP, 1000, false},
		{Other, 0, true},
		{Refused, 0, true},
	} {
		if got := f.First(tt.class, tt.code); got != tt.first {
			t.Errorf("%d: First(%v, %d) = %v, want %v", i, tt.class, tt.code, got, tt.first)
		}
	}
}
