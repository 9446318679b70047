package merge

import (
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

func TestMergeHV(t *testing.T) {
	t.Parallel()
	a, b := generator(t, 0, 1), generator(t, time.Second, 2)
	a.HV, b.HV = hvResult(t).HV, hvResult(t).HV
	b.HV.Receiver.TravelAvgMs = 1.2
	b.HV.Receiver.Received = 994 // half of a's 1988
	a.Timeline[0].BytesSent, b.Timeline[0].BytesSent = 1_000_000, 1_500_000
	m, err := Results([]*result.Result{a, b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := m.HV
	if h == nil || h.Producers != 4 || h.Sent.Written != 2*1989 || h.Sent.Bytes != 2*1989*8204 || h.Reconnects != 2 ||
		h.NotSentBy["disconnected"] != 20 || h.Disconnects["conn_reset"] != 2 || len(h.ByProducer) != 4 ||
		h.Connect.Count != 6 || h.Handshake.Max != 4.2 {
		t.Fatalf("merged HV %+v", h)
	}
	rc := h.Receiver
	if rc.Received != 1988+994 || rc.Lost != 2 || rc.Duplicates == nil || *rc.Duplicates != 0 || rc.TravelMaxMs != 9.5 {
		t.Errorf("merged receiver %+v", rc)
	}
	if want := (0.6*1988 + 1.2*994) / (1988 + 994); rc.TravelAvgMs < want-1e-9 || rc.TravelAvgMs > want+1e-9 {
		t.Errorf("travel avg %v, want %v (weighted by messages)", rc.TravelAvgMs, want)
	}
	if h.WriteBlocked != m.Service || h.PeakMBps < 1.5 {
		t.Errorf("write blocked %+v vs service %+v, peak %v", h.WriteBlocked, m.Service, h.PeakMBps)
	}
	b.HV = nil
	if _, err := Results([]*result.Result{a, b}, []string{"hv.json", "rest.json"}); err == nil || !strings.Contains(err.Error(), "rest.json is not an HV-VES run") {
		t.Errorf("HV with REST: %v", err)
	}
}

// TestMergeHVShardsReceiverOnce: the shards of one HV-VES run each saw
// the receiver's total; the merged result takes it once (not the sum)
// and counts losses against what all the shards wrote.
func TestMergeHVShardsReceiverOnce(t *testing.T) {
	t.Parallel()
	var rs []*result.Result
	for i := range 4 {
		r := shard(t, "hv42", i, 4)
		r.HV = hvResult(t).HV
		r.HV.Sent.Written = 1000
		r.HV.Receiver.Received = 3990 + int64(i) // read at slightly different times
		rs = append(rs, r)
	}
	// Shard 0 alone follows the collector's counters: the others have no
	// receiver view, and the run's is shard 0's.
	only0 := make([]*result.Result, 4)
	for i, r := range rs {
		c := *r
		hv := *r.HV
		if i > 0 {
			hv.Receiver = nil
		} else {
			rc := *hv.Receiver
			rc.Received = 3993
			hv.Receiver = &rc
		}
		c.HV = &hv
		only0[i] = &c
	}
	for _, in := range [][]*result.Result{rs, only0} {
		m, err := Shards(in, []string{"a", "b", "c", "d"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rc := m.HV.Receiver
		if m.HV.Sent.Written != 4000 || rc == nil || rc.Received != 3993 || rc.Lost != 7 {
			t.Fatalf("written %d, receiver %+v: want 4000 written, 3993 received once and 7 lost", m.HV.Sent.Written, rc)
		}
	}
	m, err := Shards(rs, []string{"a", "b", "c", "d"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(m.Warnings, "\n"); !strings.Contains(w, "the receiver counted 3993 messages of the 4000 the shards wrote: 7 lost") {
		t.Errorf("warnings %q", w)
	}
	if rs[0].HV.Receiver.Lost != hvResult(t).HV.Receiver.Lost {
		t.Errorf("the input's receiver was changed: %+v", rs[0].HV.Receiver)
	}
}
