package engine

import (
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

// A checkpoint built from the swapped counts is what a copy of every
// Tally under the lock gave: the same counts, classes, messageIds and
// distributions as a recorder that was never swapped, whatever the
// checkpoints' cadence. When every request counted so far is due in a
// closed second, its counts are those seconds' counts, and each closed
// second it holds is the final result's second of the same time.
func TestCheckpointFromSwapsEqualsCopy(t *testing.T) {
	const secs = 12
	for _, tc := range []struct {
		name  string
		every []int // the seconds after which a checkpoint is taken
		split bool  // an output reads the seconds' split by outcome
	}{
		{"once", []int{5}, false},
		{"every second, split", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, true},
		{"every second", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, false},
		{"uneven", []int{2, 3, 9}, false},
		{"never", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := ledgerEngine(tc.split)
			ref := newRecorder(nil, 3, 0, newTimeline(nil, nil)) // never swapped: the copy the lock used to take
			tk := &ticker{e: e, spare: result.NewHistogram(), led: newLedger(3, 0, true)}
			recs := lockRecords(secs)
			var cks []tallies
			for s := range secs {
				for _, rec := range recs[s*500 : (s+1)*500] {
					e.tl.due(int64(s))
					e.rec.record(&rec)
					ref.record(&rec)
				}
				e.tl.frontier.Store(int64(s + 1)) // the dispatcher moves on: second s may close
				if !contains(tc.every, s) {
					continue
				}
				h := tk.hold(true)
				e.tl.settle(h.seconds)
				ck := tk.checkpoint(&h, time.Now())
				sameTally(t, "checkpoint", &ck.t.run, &ref.cur.run)
				for k := range ck.t.kinds {
					sameTally(t, "checkpoint's kind", &ck.t.kinds[k], &ref.cur.kinds[k])
				}
				if got := len(ck.t.timeline); got != s+1 {
					t.Fatalf("checkpoint after second %d holds %d closed seconds, want %d", s, got, s+1)
				}
				var sum result.Tally
				for _, sec := range ck.t.timeline {
					sum.Scheduled += sec.Scheduled
					sum.Sent += sec.Sent
					sum.OK += sec.OK
					sum.Errors += sec.Errors
				}
				if got, want := ck.t.run.Requests(), sum.Requests(); got != want {
					t.Errorf("checkpoint after second %d counts %+v, its closed seconds %+v", s, got, want)
				}
				cks = append(cks, ck.t)
			}
			final, _ := e.rec.finish(time.Now(), tk.led)
			sameTally(t, "final", &final.run, &ref.cur.run)
			for k := range final.kinds {
				sameTally(t, "final kind", &final.kinds[k], &ref.cur.kinds[k])
			}
			if len(final.timeline) != secs {
				t.Fatalf("final timeline of %d seconds, want %d", len(final.timeline), secs)
			}
			ref.mu.Lock()
			want := ref.closeSeconds(true)
			ref.mu.Unlock()
			ref.tl.settle(want)
			for i := range want {
				if !reflect.DeepEqual(want[i].s, final.timeline[i]) {
					t.Errorf("second %d: %+v, counted without swaps nor split %+v", i, final.timeline[i], want[i].s)
				}
			}
			for i, ck := range cks {
				for j, sec := range ck.timeline {
					if !reflect.DeepEqual(sec, final.timeline[j]) {
						t.Errorf("checkpoint %d's second %d: %+v, final %+v", i, sec.T, sec, final.timeline[j])
					}
				}
			}
		})
	}
}

// ledgerEngine is an engine of three request kinds with nothing counted,
// whose seconds carry the split by outcome when split is set.
func ledgerEngine(split bool) *Engine {
	e := &Engine{}
	e.tl = newTimeline(nil, nil)
	e.tl.pool.split = split
	e.rec = newRecorder(nil, 3, 0, e.tl)
	e.rec.started = time.Now()
	return e
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// sameTally fails t unless got counts what want does.
func sameTally(t *testing.T, what string, got, want *result.Tally) {
	t.Helper()
	if got.Requests() != want.Requests() || got.BytesSent != want.BytesSent || got.BytesReceived != want.BytesReceived ||
		!maps.Equal(got.Classes, want.Classes) || !maps.Equal(got.MessageIDs, want.MessageIDs) {
		t.Fatalf("%s: %+v %v %v, want %+v %v %v", what, got.Requests(), got.Classes, got.MessageIDs, want.Requests(), want.Classes, want.MessageIDs)
	}
	if !got.Latency.Equals(want.Latency) || !got.Service.Equals(want.Service) {
		t.Fatalf("%s: latency %d values, service %d; want %d, %d", what,
			got.Latency.TotalCount(), got.Service.TotalCount(), want.Latency.TotalCount(), want.Service.TotalCount())
	}
}
