package engine

import (
	"fmt"

	"github.com/vesload/vesload/report/result"
)

// refusedWarning names a target that stopped accepting connections during
// the run (killed, restarted, its port closed): from the first second with
// a refused connection, it says whether the target answered again or
// refused to the end. A run whose requests are all refused at once fails
// its preflight instead; this is the death that comes later. It returns ""
// when no connection was refused.
func refusedWarning(timeline []result.Second) string {
	from := -1
	var refused int64
	for i := range timeline {
		n := timeline[i].ErrorsByClass[result.ClassConnRefused]
		if n > 0 && from < 0 {
			from = i
		}
		refused += n
	}
	if from < 0 {
		return ""
	}
	last := from
	for i := range timeline {
		if timeline[i].ErrorsByClass[result.ClassConnRefused] > 0 {
			last = i
		}
	}
	back := int64(-1)
	for i := last + 1; i < len(timeline); i++ {
		if timeline[i].OK > 0 {
			back = timeline[i].T
			break
		}
	}
	if back < 0 {
		return fmt.Sprintf("the target refused connections from %d s into the run to its end (%d conn_refused): it stopped or closed its port",
			timeline[from].T, refused)
	}
	return fmt.Sprintf("the target refused connections from %d s into the run (%d conn_refused); it answered again from %d s",
		timeline[from].T, refused, back)
}
