package engine

import (
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// BenchmarkRecorderLock measures how long the recorder's lock is held:
// per request (count, the whole of record's critical section), with and
// without the split by outcome that InfluxDB reads, per tick that closes
// a second (its held-ns/tick) and per tick that takes a checkpoint (hold,
// the whole of the tick's critical section), on
// a recorder that has counted ten minutes of a three-kind mix at 500/s
// with a few error classes. Every request, every checkpoint and every
// tick wait for as long as the lock is held, so these are the figures
// that must stay small.
func BenchmarkRecorderLock(b *testing.B) {
	for _, bc := range []struct {
		name  string
		split bool
	}{{"request", false}, {"request/split", true}} {
		b.Run(bc.name, func(b *testing.B) {
			e := lockedEngine(bc.split, 600)
			recs := lockRecords(600)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				rec := recs[i%len(recs)]
				rec.dueNs = int64(599 * time.Second) // the open second: a closed one would be a straggler
				e.rec.count(&rec)
				e.rec.fanning.Done()
			}
		})
	}
	b.Run("tick", func(b *testing.B) {
		// A tick without a checkpoint that closes one second of 500
		// requests: each op records the second (outside the lock, not
		// timed by the metric) then ticks; held-ns/tick is the lock's
		// hold of the tick alone.
		e := lockedEngine(false, 1)
		t := &ticker{e: e, spare: e.rec.live, led: newLedger(3, 0, true)}
		e.rec.live = result.NewHistogram()
		recs := lockRecords(1)
		var (
			held time.Duration
			rec  record // one, reused: its event escapes to the observers
		)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			s := int64(i + 1)
			for j := range recs {
				rec = recs[j]
				rec.dueNs += s * int64(time.Second)
				e.tl.due(s)
				e.rec.record(&rec)
			}
			e.tl.frontier.Store(s + 1)
			start := time.Now()
			h := t.hold(false)
			held += time.Since(start)
			e.tl.settle(h.seconds)
			for _, c := range h.seconds {
				e.tl.pool.put(c.t)
			}
		}
		b.ReportMetric(float64(held.Nanoseconds())/float64(b.N), "held-ns/tick")
	})
	b.Run("checkpoint", func(b *testing.B) {
		e := lockedEngine(false, 600)
		t := &ticker{e: e, spare: e.rec.live, led: newLedger(3, 0, true)}
		e.rec.live = result.NewHistogram()
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			t.hold(true)
		}
	})
}

// lockedEngine is an engine whose recorder has counted secs seconds of
// lockRecords, all of them closed but the last.
func lockedEngine(split bool, secs int) *Engine {
	e := &Engine{}
	e.tl = newTimeline(nil, nil)
	e.tl.pool.split = split
	e.rec = newRecorder(nil, 3, 0, e.tl)
	e.rec.started = time.Now()
	for _, rec := range lockRecords(secs) {
		e.tl.due(rec.dueNs / int64(time.Second))
		e.rec.record(&rec)
	}
	e.rec.mu.Lock()
	e.rec.closeSeconds(false)
	e.rec.mu.Unlock()
	return e
}

// lockRecords are 500 requests a second for secs seconds: three kinds,
// latencies from 1 ms to 2 s, one in fifty an http_503 with a messageId,
// one in two hundred a timeout.
func lockRecords(secs int) []record {
	recs := make([]record, 0, secs*500)
	for s := range secs {
		for i := range 500 {
			n := s*500 + i
			rec := record{seq: int64(n), flight: int64(1 + i%64), kind: uint8(n % 3),
				dueNs:   int64(s)*int64(time.Second) + int64(i)*int64(2*time.Millisecond),
				latency: int64(time.Millisecond) + int64(n%2000)*int64(time.Millisecond),
				service: int64(time.Millisecond) + int64(n%997)*int64(time.Millisecond),
				sent:    900, recv: 200, code: 202, class: transport.OK}
			switch {
			case n%50 == 0:
				rec.code, rec.class, rec.msgID = 503, transport.HTTP, "SVC2000"
			case n%200 == 1:
				rec.code, rec.class = 0, transport.Timeout
			}
			recs = append(recs, rec)
		}
	}
	return recs
}
