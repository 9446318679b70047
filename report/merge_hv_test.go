package report

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
	m, err := Merge([]*result.Result{a, b}, nil)
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
	if _, err := Merge([]*result.Result{a, b}, []string{"hv.json", "rest.json"}); err == nil || !strings.Contains(err.Error(), "rest.json is not an HV-VES run") {
		t.Errorf("HV with REST: %v", err)
	}
}
