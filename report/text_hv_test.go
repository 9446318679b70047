package report

import (
	"bytes"
	"github.com/vesload/vesload/report/result"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	goldenfile "github.com/vesload/vesload/internal/golden"
)

// hvResult is a 2-producer HV-VES run with a reconnect and an observed
// receiver.
func hvResult(t testing.TB) *result.Result {
	r := sampleResult(t)
	r.Config.Protocol = "hv-ves"
	r.Config.Shape = "2 producers × 1000 every 10ms"
	r.Config.Method, r.Config.URL = "", "tls://127.0.0.1:6061"
	r.HV = &result.HV{
		Addr: "127.0.0.1:6061", TLS: true, Producers: 2, Messages: 1000, SizeBytes: 8192, IntervalS: 0.01,
		Domain: "perf3gpp", Sent: result.HVCounts{Scheduled: 2000, Sent: 1990, Written: 1989, Failed: 1, NotSent: 10, Bytes: 1989 * 8204},
		NotSentBy: map[string]int64{"disconnected": 10}, MBps: 1.63, PeakMBps: 1.65,
		WriteBlocked: result.Summary{Count: 1989, P50: 0.02, P99: 0.3, Max: 2.5},
		Connect:      result.Summary{Count: 3, P50: 0.2, Max: 0.4}, Handshake: result.Summary{Count: 3, P50: 3.1, Max: 4.2},
		Connects: 3, Reconnects: 1, Disconnects: map[string]int64{"conn_reset": 1},
		ByProducer: []result.HVProducer{
			{Source: "vesload-hv-0", Counts: result.HVCounts{Scheduled: 1000, Sent: 1000, Written: 1000, Bytes: 1000 * 8204}},
			{Source: "vesload-hv-1", Counts: result.HVCounts{Scheduled: 1000, Sent: 990, Written: 989, Failed: 1, NotSent: 10, Bytes: 989 * 8204}, Reconnects: 1},
		},
		Receiver: &result.HVReceiver{Source: "emulator", Received: 1988, Accepted: 1988, Lost: 1, Duplicates: new(int64(0)), TravelAvgMs: 0.6,
			TravelP50Ms: 0.4, TravelP99Ms: 2.2, TravelMaxMs: 9.5},
	}
	return r
}

func TestHVTextGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := Text(&b, hvResult(t), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	goldenfile.Check(t, filepath.Join("testdata", "text_hv.golden"), b.Bytes())
}

func TestHVRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "hv.json")
	if err := Write(path, hvResult(t)); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.HV == nil || back.HV.Receiver == nil || back.HV.Receiver.Lost != 1 || back.Config.Protocol != "hv-ves" ||
		len(back.HV.ByProducer) != 2 || back.HV.ByProducer[1].Reconnects != 1 {
		t.Errorf("read back %+v", back.HV)
	}
}

// TestHVTextHasNoRESTUnsentLine: the REST "events ... unsent
// (pool_exhausted + not_sent)" line would misname an HV-VES run's
// disconnected messages; the HV-VES section says it instead.
func TestHVTextHasNoRESTUnsentLine(t *testing.T) {
	t.Parallel()
	r := hvResult(t)
	r.Timeline = []result.Second{{T: 0, Sent: 100, OK: 100, BytesSent: 820_400}}
	var b bytes.Buffer
	if err := Text(&b, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); strings.Contains(got, "unsent (pool_exhausted + not_sent)") || !strings.Contains(got, "not sent by reason: disconnected=10") {
		t.Errorf("summary:\n%s", got)
	}
}

// A receiver that counted more than the run wrote (one shard of several
// against one collector) shows no negative count anywhere: lost 0, and
// how many more it counted.
func TestHVTextReceiverAboveWritten(t *testing.T) {
	t.Parallel()
	r := hvResult(t)
	r.HV.Receiver.Received, r.HV.Receiver.Lost, r.HV.Receiver.Extra = 2988, 0, 999
	var b bytes.Buffer
	if err := Text(&b, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if regexp.MustCompile(`[ |(]-[0-9]`).MatchString(out) {
		t.Errorf("a negative count:\n%s", out)
	}
	for _, w := range []string{"received 2988 (999 more than this run wrote: traffic from elsewhere), accepted 1988, lost 0", "0 (999 extra)"} {
		if !strings.Contains(out, w) {
			t.Errorf("summary lacks %q:\n%s", w, out)
		}
	}
}
