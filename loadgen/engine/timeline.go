package engine

import (
	"maps"
	"math"
	"sync/atomic"

	"github.com/vesload/vesload/report/result"
)

// maxTimeline bounds the per-second timeline (a day of seconds), so that
// memory does not grow without limit on endless runs.
const maxTimeline = 86400

// timelineRing is how many seconds the pending counters cover: a second
// still waiting for an answer this long after it was due is closed by
// force (its stragglers then count in the run, not in the timeline).
const timelineRing = 1024

// timeline buckets requests by the second in which they were due
// (docs/ARCHITECTURE.md, "The timeline"), so that a constant rate R shows
// exactly R scheduled in every second and a frozen target shows as high
// latency in the seconds it froze, not as an empty second followed by a
// burst. A second is closed, and becomes final, once the dispatcher has
// moved past it and every request due in it has an outcome.
//
// Its work is split between three hands. The dispatcher calls due and
// discard without a lock. Counting (add) and closing (closeReady) run
// under the recorder's lock, and do nothing else: a closed second leaves
// as its number and its Tally. The ticker, after the lock, settles the
// closed seconds into entries (settle: the split joined, percentiles,
// the wall clock's readings) and keeps them; the readings and the
// entries are its alone.
type timeline struct {
	pending  [timelineRing]atomic.Int64 // requests due in second s%ring without an outcome yet
	frontier atomic.Int64               // the second the dispatcher is in; earlier ones get no new request

	// Under the recorder's lock.
	base int64           // the oldest open second
	open []*result.Tally // open[i] is second base+i
	pool *tallyPool      // closed seconds' Tallies, back from the outputs

	// The ticker's, after the lock: the closed seconds' entries, which it
	// only appends to, and what they are built from.
	closed    []result.Second
	truncated bool
	// scheduled, when set, gives the requests the model scheduled in a
	// second; otherwise the second's own count is used.
	scheduled func(s int64) int64
	// step gives the concurrency of a closed-model second, or 0.
	step func(s int64) int
	// cpu and target hold the wall clock's readings by second.
	cpu    []float64
	target []targetReading
	// usage holds the generator's own memory and the requests in flight
	// by wall second, for the memory and pool-use charts.
	usage []usageReading
	// stats reads each closed second's mean and max latency.
	stats result.MeanMaxReader
}

// usageReading is the generator's RSS at the end of one wall second, the
// most requests it had in flight at once during it, and how long its
// goroutines waited to run (p99, ms; see sample.Reading.SchedP99Ms).
type usageReading struct {
	rssBytes   int64
	inFlight   int64
	schedP99Ms float64
}

// targetReading is what the target sampler said about one second.
type targetReading struct {
	cpuPct   float64
	rssBytes int64
	ok       bool
}

func newTimeline(scheduled func(int64) int64, step func(int64) int) *timeline {
	return &timeline{scheduled: scheduled, step: step, pool: newTallyPool()}
}

// due counts a request due in second s as dispatched and without an
// outcome yet. Seconds are reached in order.
func (t *timeline) due(s int64) {
	t.pending[s%timelineRing].Add(1)
	if s > t.frontier.Load() {
		t.frontier.Store(s)
	}
}

// discard forgets a request due in second s that will never be sent (a
// stop came while it waited for a connection).
func (t *timeline) discard(s int64) { t.pending[s%timelineRing].Add(-1) }

// passed tells the timeline that the dispatcher will reach no more
// seconds, so that the last ones close as soon as they are answered.
func (t *timeline) passed() { t.frontier.Store(math.MaxInt64) }

// add counts an outcome of a request due in second s. It returns false for
// a straggler of a second closed by force, whose pending count was
// cleared when it closed.
func (t *timeline) add(s int64, o result.Outcome) bool {
	i := s - t.base
	if i < 0 {
		return false
	}
	for int64(len(t.open)) <= i {
		t.open = append(t.open, t.tally())
	}
	if t.pool.split {
		t.open[i].AddSplit(o) // joined by settle, after the lock
	} else {
		t.open[i].Add(o)
	}
	t.pending[s%timelineRing].Add(-1)
	return true
}

// tally is a new second's Tally: a closed second's that every output
// has read, or a new one.
func (t *timeline) tally() *result.Tally { return t.pool.get() }

// reading stores the wall clock's readings of second s.
func (t *timeline) reading(s int64, cpu float64, tgt *Reading) {
	if s < 0 || s >= maxTimeline {
		return
	}
	for int64(len(t.cpu)) <= s {
		t.cpu = append(t.cpu, 0)
		t.target = append(t.target, targetReading{})
	}
	t.cpu[s] = cpu
	if tgt != nil {
		t.target[s] = targetReading{cpuPct: tgt.CPUPct, rssBytes: tgt.RSSBytes, ok: true}
	}
}

// used stores the generator's usage of wall second s (RSS 0: not
// sampled).
func (t *timeline) used(s int64, u usageReading) {
	if s < 0 || s >= maxTimeline {
		return
	}
	for int64(len(t.usage)) <= s {
		t.usage = append(t.usage, usageReading{})
	}
	t.usage[s] = u
}

// closeReady closes, in order, every second that is final, and all open
// seconds when all is set (the run is over), handing each to emit with
// its Tally: the timeline never counts into it again, and takes it back
// through its pool once every output has read it (see tick). The caller
// holds the recorder's lock; settle builds the seconds' entries after it.
func (t *timeline) closeReady(all bool, emit func(s int64, tl *result.Tally)) {
	for {
		frontier := t.frontier.Load()
		done := frontier == math.MaxInt64 // the dispatcher has finished
		var ready bool
		switch {
		case all:
			ready = len(t.open) > 0
		case done:
			ready = len(t.open) > 0 && t.pending[t.base%timelineRing].Load() == 0
		default:
			ready = t.base < frontier && t.pending[t.base%timelineRing].Load() == 0 ||
				frontier-t.base >= timelineRing-8
		}
		if !ready {
			return
		}
		var tl *result.Tally
		if len(t.open) > 0 {
			tl = t.open[0]
			t.open = t.open[1:]
		} else {
			tl = t.tally()
		}
		emit(t.base, tl)
		t.pending[t.base%timelineRing].Store(0)
		t.base++
	}
}

// settle completes the seconds closeReady closed, in order, outside the
// recorder's lock: each Tally counted apart by outcome is joined (see
// result.Tally.AddSplit), its entry is built, and kept (up to a day).
func (t *timeline) settle(cs []closedSecond) {
	for i := range cs {
		c := &cs[i]
		if t.pool.split {
			c.t.JoinSplit()
		}
		c.s = t.entry(c.s.T, c.t)
		if len(t.closed) < maxTimeline {
			t.closed = append(t.closed, c.s)
		} else {
			t.truncated = true
		}
	}
}

// entry is the timeline entry of second s.
func (t *timeline) entry(s int64, tl *result.Tally) result.Second {
	e := result.Second{
		T:             s,
		Scheduled:     tl.Scheduled,
		Sent:          tl.Sent,
		OK:            tl.OK,
		Errors:        tl.Errors,
		PoolExhausted: tl.Classes[result.ClassPoolExhausted],
		BytesSent:     tl.BytesSent,
	}
	if t.scheduled != nil {
		e.Scheduled = t.scheduled(s)
	}
	if t.step != nil {
		e.Concurrency = t.step(s)
	}
	if h := tl.Latency; h.TotalCount() > 0 {
		mean, max := t.stats.MeanMax(h)
		e.P50Ms = float64(h.ValueAtQuantile(50)) / 1000
		e.P95Ms = float64(h.ValueAtQuantile(95)) / 1000
		e.AvgMs = math.Round(mean) / 1000
		e.P99Ms = float64(h.ValueAtQuantile(99)) / 1000
		e.MaxMs = float64(max) / 1000
	}
	if len(tl.Classes) > 0 {
		e.ErrorsByClass = maps.Clone(tl.Classes)
	}
	if s < int64(len(t.cpu)) {
		e.GenCPUPct = round2(t.cpu[s])
		if r := t.target[s]; r.ok {
			e.TargetCPUPct = round2(r.cpuPct)
			e.TargetRSSBytes = r.rssBytes
		}
	}
	if s < int64(len(t.usage)) {
		u := t.usage[s]
		e.GenRSSBytes, e.InFlight, e.GenSchedP99Ms = u.rssBytes, u.inFlight, round2(u.schedP99Ms)
	}
	return e
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }
