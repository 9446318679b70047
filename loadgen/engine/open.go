package engine

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/vesload/vesload/internal/clock"
)

// validate accepts any pool: NewSchedule checked the rest.
func (s *Schedule) validate(int) error { return nil }

func (s *Schedule) facts(pool int) modelFacts {
	peak := 0.0
	for _, g := range s.segs {
		peak = max(peak, g.From, g.To)
	}
	return modelFacts{
		total:     s.total,
		rate:      s.MeanRate(),
		peak:      peak,
		perSecond: s.inSecond,
		// The arrivals of 20 ms at the peak rate, at least 4, within the
		// pool: opening connections during a fast run is what costs (on
		// one core, a cascade of set-ups at 5,000/s exhausted the pool in
		// the first second).
		warm: min(pool, max(4, int(math.Ceil(peak*0.02)))),
	}
}

// inSecond is the number of requests due in second sec of the run.
func (s *Schedule) inSecond(sec int64) int64 {
	return s.before(time.Duration(sec+1)*time.Second) - s.before(time.Duration(sec)*time.Second)
}

// before is the number of requests due before offset t.
func (s *Schedule) before(t time.Duration) int64 {
	return int64(sort.Search(int(s.total), func(n int) bool {
		due, _ := s.Due(int64(n))
		return due >= t
	}))
}

// coalesce is the shortest time between two wake-ups of the dispatcher.
// Above 1/coalesce requests per second the requests due within one
// window are sent together: the dispatch lag stays under coalesce and the
// cost per request falls with the rate.
const coalesce = 500 * time.Microsecond

// dispatch walks the schedule, waits for each due time and hands the
// request on: to a free connection at once, else to the pool waiter, so
// that a request waiting for a connection never holds back the ones due
// after it. It reports whether it was interrupted.
func (s *Schedule) dispatch(ctx context.Context, d *dispatcher) (interrupted bool) {
	sl := d.clock.NewAlarm()
	defer sl.Close()
	var woke time.Time
	for n := int64(0); ; n++ {
		off, ok := s.Due(n)
		if !ok {
			return false
		}
		due := d.start.Add(off)
		// Wake at most once per coalesce window: at high rates the requests
		// due within it go out together, a little late (and measured so)
		// rather than each costing a wake-up of its own.
		now := d.now()
		if wake := woke.Add(coalesce); due.After(now) {
			if due.After(wake) {
				wake = due
			}
			if !sl.Until(ctx, wake, d.abort) {
				return true
			}
			woke = wake
			now = d.now()
		} else if clock.Stopped(ctx, d.abort) {
			return true // behind schedule, but a stop still stops at once
		}
		seq := s.Seq(n)
		j := job{seq: seq, due: due, kind: d.kind(seq)}
		d.reached(j)
		if !d.send(ctx, j, now) {
			return true
		}
		d.lag.dispatched(due, now)
	}
}
