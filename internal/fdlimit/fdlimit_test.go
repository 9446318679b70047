package fdlimit

import (
	"strings"
	"testing"
)

func TestClampPool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pool       int
		servedHere bool
		limit      int
		want       int
		note       bool
	}{
		{64, false, 1024, 64, false},
		{960, false, 1024, 960, false},
		{961, false, 1024, 960, true},
		{1000, true, 1024, 480, true},
		{100000, false, 256, 192, true},
		{10, false, 32, 1, true},
	}
	for _, tc := range tests {
		got, note := ClampPool(tc.pool, tc.servedHere, tc.limit)
		if got != tc.want || (note != "") != tc.note {
			t.Errorf("ClampPool(%d, %v, %d) = %d %q, want %d (note %v)", tc.pool, tc.servedHere, tc.limit, got, note, tc.want, tc.note)
		}
		if tc.note && !strings.Contains(note, "ulimit -n") {
			t.Errorf("note %q does not say how to raise the limit", note)
		}
	}
}

// FitPool leaves a pool that fits alone, under whatever limit the
// process has.
func TestFitPoolKeepsOneConnection(t *testing.T) {
	t.Parallel()
	if got, note := FitPool(1, true); got != 1 || note != "" {
		t.Errorf("FitPool(1) = %d %q", got, note)
	}
}
