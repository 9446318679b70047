package rest

import (
	"testing"

	"github.com/vesload/vesload/loadgen/transport"
)

// TestFailureLogFirst checks that each class, and each status of http,
// is shown once.
func TestFailureLogFirst(t *testing.T) {
	t.Parallel()
	var f failureLog
	for i, tt := range []struct {
		class transport.Class
		code  int32
		first bool
	}{
		{transport.HTTP, 500, true},
		{transport.HTTP, 500, false},
		{transport.HTTP, 400, true},
		{transport.Timeout, 0, true},
		{transport.Timeout, 0, false},
		{transport.HTTP, 999, true}, // beyond HTTP's statuses: one slot for all
		{transport.HTTP, 1000, false},
		{transport.Other, 0, true},
		{transport.Refused, 0, true},
	} {
		if got := f.first(tt.class, tt.code); got != tt.first {
			t.Errorf("%d: first(%v, %d) = %v, want %v", i, tt.class, tt.code, got, tt.first)
		}
	}
}
