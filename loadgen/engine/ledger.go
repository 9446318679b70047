package engine

import (
	"github.com/vesload/vesload/report/result"
)

// counts are the Tallies the recorder adds every outcome to besides the
// timeline's: the run, each request kind of a mix, each closed-model step.
type counts struct {
	run          result.Tally
	kinds, steps []result.Tally
}

// newCounts are empty counts for a run of kinds request kinds (none kept
// for one kind alone) and steps closed-model steps.
func newCounts(kinds, steps int) *counts {
	c := &counts{run: result.NewTally(), steps: newTallies(steps)}
	if kinds > 1 {
		c.kinds = newTallies(kinds)
	}
	return c
}

func newTallies(n int) []result.Tally {
	if n == 0 {
		return nil
	}
	ts := make([]result.Tally, n)
	for i := range ts {
		ts[i] = result.NewTally()
	}
	return ts
}

// merge adds o to c; both are of the same run.
func (c *counts) merge(o *counts) {
	c.run.Merge(&o.run)
	for i := range c.kinds {
		c.kinds[i].Merge(&o.kinds[i])
	}
	for i := range c.steps {
		c.steps[i].Merge(&o.steps[i])
	}
}

// reset empties c and keeps its maps and histograms.
func (c *counts) reset() {
	c.run.Reset()
	for i := range c.kinds {
		c.kinds[i].Reset()
	}
	for i := range c.steps {
		c.steps[i].Reset()
	}
}

// clone is a copy of c that shares nothing with it.
func (c *counts) clone() *counts {
	o := &counts{run: c.run.Clone(), kinds: cloneTallies(c.kinds), steps: cloneTallies(c.steps)}
	return o
}

func cloneTallies(ts []result.Tally) []result.Tally {
	if ts == nil {
		return nil
	}
	out := make([]result.Tally, len(ts))
	for i := range ts {
		out[i] = ts[i].Clone()
	}
	return out
}

// ledger is what the recorder counted up to its last swap, kept by the
// ticker outside the recorder's lock: at a checkpoint the recorder hands
// over the counts since the previous one in exchange for the empty spare
// (a swap of pointers) and the silence it noted since (a few words); the
// ledger adds them up, and judges the silence, with the lock released.
// Checkpoints and the final result are built from it, so that the
// recorder's lock is held only to count and to swap, never to copy a
// histogram (docs/ARCHITECTURE.md, "Tally").
type ledger struct {
	sum   *counts // nil before the first swap
	spare *counts // empty: what the recorder counts on after the next swap
	// silence holds every answer and long wait noted up to the last swap.
	silence      silence
	kinds, steps int
}

// newLedger is the ledger of a run of kinds request kinds and steps
// closed-model steps. Only a run with checkpoints swaps before its end:
// without them the ledger holds no spare (the final swap needs none), so
// that such a run carries no second set of histograms.
func newLedger(kinds, steps int, checkpoints bool) *ledger {
	l := &ledger{kinds: kinds, steps: steps}
	if checkpoints {
		l.spare = newCounts(kinds, steps)
	}
	return l
}

// take adds delta, the counts a swap handed over, to the sum. The first
// becomes the sum itself; later ones are merged and, emptied, become the
// spare of the next swap. spare says whether another swap will come (the
// final one needs none).
func (l *ledger) take(delta *counts, spare bool) {
	if l.sum == nil {
		l.sum = delta
		if spare {
			l.spare = newCounts(l.kinds, l.steps)
		}
		return
	}
	l.sum.merge(delta)
	delta.reset()
	l.spare = delta
}

// view is what a checkpoint or the final result reads besides the
// counts: the closed seconds of the timeline, shared, not copied, since
// the timeline only appends to them and never changes one, and the most
// requests in flight at once, read at the swap.
type view struct {
	timeline  []result.Second
	truncated bool
	maxFlight int64
}

// view is the timeline's part of a view: its closed seconds as they are
// now. The caller is the ticker, or the end of the run once it stopped.
func (t *timeline) view(maxFlight int64) view {
	n := len(t.closed)
	return view{timeline: t.closed[:n:n], truncated: t.truncated, maxFlight: maxFlight}
}

// tallies is a consistent state of the run, from which a result (final
// or checkpoint) is built: the counts of the ledger (owned, or a copy
// when the run goes on) with the view taken at the same swap.
func (l *ledger) tallies(c *counts, v view) tallies {
	t := tallies{run: c.run, kinds: c.kinds, steps: c.steps,
		timeline: v.timeline, truncated: v.truncated, maxFlight: v.maxFlight}
	t.silent, t.silentFrom = l.silence.longest()
	return t
}
