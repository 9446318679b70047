package engine

import (
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/transport"
)

// A snapshot taken while the run records shares nothing with the recorder;
// the final state hands its histograms over instead of copying them, and
// stays as it was when later stragglers arrive.
func TestRecorderSnapshotCopiesFinishHandsOver(t *testing.T) {
	r := newRecorder(nil, 2, 1, newTimeline(nil, nil))
	rec := &record{seq: 1, kind: 1, dueNs: int64(500 * time.Millisecond), latency: 2e6, service: 1e6, class: transport.HTTP, code: 503}
	r.record(rec)

	snap := r.snapshot()
	if snap.run.Latency == r.run.Latency || snap.kinds[1].Latency == r.kinds[1].Latency || snap.steps[0].Service == r.steps[0].Service {
		t.Fatal("a snapshot shares a histogram with the recorder")
	}
	r.record(rec)
	if snap.run.Latency.TotalCount() != 1 || snap.run.Classes["http_503"] != 1 {
		t.Errorf("snapshot changed after a later record: %d values, %v", snap.run.Latency.TotalCount(), snap.run.Classes)
	}

	final, _ := r.finish(time.Now())
	if final.run.Latency != r.run.Latency || final.kinds[1].Service != r.kinds[1].Service || final.steps[0].Latency != r.steps[0].Latency {
		t.Error("finish copied a histogram it could hand over")
	}
	r.record(rec) // a straggler after the end is not counted
	if final.run.Latency.TotalCount() != 2 || final.run.Sent != 2 || final.run.Classes["http_503"] != 2 {
		t.Errorf("final state: %d values, %d sent, %v; want 2, 2, http_503: 2", final.run.Latency.TotalCount(), final.run.Sent, final.run.Classes)
	}
	final.run.Classes["http_503"] = 99 // the result's maps are its own
	if r.run.Classes["http_503"] != 2 {
		t.Error("the final state shares its error classes with the recorder")
	}
}
