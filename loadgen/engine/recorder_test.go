package engine

import (
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
)

// A swap hands the ledger what the recorder counted since the last one
// and leaves the recorder counting on the spare; the ledger's sum is the
// run's, a checkpoint's copy of it shares nothing with it, the final
// state is the sum itself, and later stragglers change nothing.
func TestRecorderSwapsLedgerSums(t *testing.T) {
	r := newRecorder(nil, 2, 1, newTimeline(nil, nil))
	l := newLedger(2, 1, true)
	rec := &record{seq: 1, kind: 1, dueNs: int64(500 * time.Millisecond), latency: 2e6, service: 1e6, class: transport.HTTP, code: 503}
	r.record(rec)

	spare := l.spare
	r.mu.Lock()
	delta, maxFlight := r.swap(l)
	r.mu.Unlock()
	if r.cur != spare || delta.run.Sent != 1 || maxFlight != 0 {
		t.Fatalf("swap: recorder counts on %p, want the spare %p; handed %d sent", r.cur, spare, delta.run.Sent)
	}
	l.take(delta, true)
	snap := l.sum.clone()
	if snap.run.Latency == l.sum.run.Latency || snap.kinds[1].Latency == l.sum.kinds[1].Latency || snap.steps[0].Service == l.sum.steps[0].Service {
		t.Fatal("a checkpoint's copy shares a histogram with the ledger")
	}
	r.record(rec)
	if snap.run.Latency.TotalCount() != 1 || snap.run.Classes["http_503"] != 1 {
		t.Errorf("copy changed after a later record: %d values, %v", snap.run.Latency.TotalCount(), snap.run.Classes)
	}

	final, _ := r.finish(time.Now(), l)
	if final.run.Latency != l.sum.run.Latency {
		t.Error("finish copied the ledger's sum")
	}
	r.record(rec) // a straggler after the end is not counted
	if final.run.Latency.TotalCount() != 2 || final.run.Sent != 2 || final.run.Classes["http_503"] != 2 ||
		final.kinds[1].Sent != 2 || final.steps[0].Sent != 2 {
		t.Errorf("final state: %d values, %d sent, %v; want 2, 2, http_503: 2", final.run.Latency.TotalCount(), final.run.Sent, final.run.Classes)
	}
}

// The silence judged outside the lock, from what each swap drained, is
// the silence the recorder noted: answers and long waits noted before
// and after a drain all reach it.
func TestSilenceDrains(t *testing.T) {
	sec := int64(time.Second)
	notes := [][3]int64{ // written, done, answered
		{0, sec / 2, 1},
		{sec, 5 * sec, 1}, // waited 4 s
		{2 * sec, 3 * sec, 0},
		{6 * sec, 7 * sec, 1},
		{7 * sec, 12 * sec, 1}, // waited 5 s
		{8 * sec, 9 * sec, 1},
	}
	for split := 0; split <= len(notes); split++ {
		var whole, rec, judged silence
		for i, n := range notes {
			whole.note(n[0], n[1], n[2] == 1)
			rec.note(n[0], n[1], n[2] == 1)
			if i == split {
				rec.drain(&judged)
			}
		}
		rec.drain(&judged)
		wd, wf := whole.longest()
		jd, jf := judged.longest()
		if wd != jd || wf != jf || wd == 0 {
			t.Errorf("drained after note %d: %v from %v, want %v from %v", split, jd, jf, wd, wf)
		}
	}
}
