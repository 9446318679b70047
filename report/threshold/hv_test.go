package threshold

import (
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func hvResult() *result.Result {
	r := sampleRun()
	r.HV = &result.HV{
		Producers: 6, Sent: result.HVCounts{Scheduled: 36000, Sent: 36000, Written: 35990, Failed: 10},
		MBps: 4.8, PeakMBps: 4.92, Reconnects: 2, WriteBlocked: result.Summary{Count: 35990, P99: 0.2},
		NotSentBy: map[string]int64{"disconnected": 7, "stopped": 3},
		Receiver: &result.HVReceiver{Source: "emulator", Received: 35988, Lost: 2, Duplicates: new(int64(0)),
			Dropped: map[string]int64{"routing": 4, "invalid": 1}},
	}
	return r
}

func TestEvalHV(t *testing.T) {
	t.Parallel()
	noReceiver := hvResult()
	noReceiver.HV.Receiver = nil
	noDuplicates := hvResult()
	noDuplicates.HV.Receiver.Duplicates = nil
	for _, c := range []struct {
		expr   string
		r      *result.Result
		value  float64
		pass   bool
		reason string
	}{
		{"hv.lost==0", hvResult(), 2, false, ""},
		{"hv.lost<=2", hvResult(), 2, true, ""},
		{"hv.peak_mbps>4", hvResult(), 4.92, true, ""},
		{"hv.mbps>=4.8", hvResult(), 4.8, true, ""},
		{"hv.received==35988", hvResult(), 35988, true, ""},
		{"hv.duplicates==0", hvResult(), 0, true, ""},
		{"hv.written>36000", hvResult(), 35990, false, ""},
		{"hv.failed<20", hvResult(), 10, true, ""},
		{"hv.not_sent==0", hvResult(), 0, true, ""},
		{"hv.reconnects==0", hvResult(), 2, false, ""},
		{"hv.write_blocked_p99<1ms", hvResult(), 0.2, true, ""},
		{"hv.disconnected==0", hvResult(), 7, false, ""},
		{"hv.dropped<=5", hvResult(), 5, true, ""},
		{"hv.dropped==0", noReceiver, 0, false, "the receiving side was not observed"},
		{"hv.lost==0", noReceiver, 0, false, "the receiving side was not observed"},
		{"hv.duplicates==0", noDuplicates, 0, false, "the receiver does not count duplicates"},
		{"hv.peak_mbps>4", sampleRun(), 0, false, "not an HV-VES run"},
	} {
		th, err := Parse(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		got := th.Eval(c.r)
		if got.Value != c.value || got.Pass != c.pass || got.Reason != c.reason {
			t.Errorf("%s: value %v pass %v reason %q; want %v %v %q", c.expr, got.Value, got.Pass, got.Reason, c.value, c.pass, c.reason)
		}
	}
	if _, err := Parse("hv.speed>1"); err == nil || !strings.Contains(err.Error(), "unknown HV-VES metric") {
		t.Errorf("hv.speed: %v", err)
	}
}
