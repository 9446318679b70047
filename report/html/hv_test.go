package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func TestReportHVSection(t *testing.T) {
	t.Parallel()
	r := sampleResult(t)
	var plain bytes.Buffer
	if err := Report(&plain, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `id="hv"`) {
		t.Error("a REST run has an HV-VES section")
	}
	r.HV = &result.HV{Addr: "127.0.0.1:6061", TLS: true, Producers: 2, Messages: 100, SizeBytes: 8192, IntervalS: 0.01,
		Sent: result.HVCounts{Scheduled: 200, Sent: 200, Written: 199, Failed: 1, Bytes: 199 * 8204},
		MBps: 0.8, PeakMBps: 0.82, Connects: 3, Reconnects: 1,
		ByProducer: []result.HVProducer{{Source: "vesload-hv-0"}, {Source: "vesload-hv-1<script>"}},
		Receiver:   &result.HVReceiver{Source: "emulator", Received: 199, Lost: 0},
	}
	var b bytes.Buffer
	if err := Report(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`id="hv"`, "Messages sent", "Peak MB/s", "vesload-hv-0", "TLS to 127.0.0.1:6061",
		"received (emulator)", "vesload-hv-1&lt;script&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("HV-VES section lacks %q", want)
		}
	}
	if strings.Index(page, `id="summary"`) > strings.Index(page, `id="hv"`) {
		t.Error("the HV-VES section comes before the summary")
	}
}
