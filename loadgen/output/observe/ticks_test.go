package observe

import (
	"strings"
	"testing"

	"github.com/vesload/vesload/loadgen/engine"
)

// Each observer of this package names itself as the user asked for it
// (or, the run's own rule, in words and live) and says which parts of the
// snapshots it reads, so that a stall that overflows its queue names it
// only when it lost something it reads.
func TestObserversNameThemselvesAndWhatTheyRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		o                engine.Observer
		name             string
		live             bool
		updates, seconds bool
	}{
		{NewCheckpointer("r.json", nil), "--checkpoint", false, false, false},
		{&StartGuard{}, "the start-of-run rule", true, false, true},
		{&AbortGuard{}, "--abort-on-fail", false, false, true},
	} {
		n, ok := tc.o.(engine.OutputNamer)
		r, ok2 := tc.o.(engine.TickReader)
		if !ok || !ok2 {
			t.Errorf("%T: OutputNamer %v, TickReader %v; want both", tc.o, ok, ok2)
			continue
		}
		name, live := n.OutputName()
		updates, seconds := r.ReadsTicks()
		if name != tc.name || live != tc.live || updates != tc.updates || seconds != tc.seconds || strings.Contains(name, "*") {
			t.Errorf("%T: %q live %v, reads updates %v seconds %v; want %q %v, %v %v",
				tc.o, name, live, updates, seconds, tc.name, tc.live, tc.updates, tc.seconds)
		}
	}
}
