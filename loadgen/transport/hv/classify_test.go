package hv

import (
	"testing"

	"github.com/vesload/vesload/loadgen/transport/transporttest"
)

// TestCauseNetErrors: a producer classes the network errors every
// transport shares as the REST transport does.
func TestCauseNetErrors(t *testing.T) {
	t.Parallel()
	for _, c := range transporttest.NetErrors() {
		if got := Cause(c.Err); got != c.Want.Name(0) {
			t.Errorf("%s: Cause(%v) = %s, want %s", c.Name, c.Err, got, c.Want.Name(0))
		}
	}
}
