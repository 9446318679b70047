package html

import (
	"slices"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/seed"
)

// hvRun is a 2-producer HV-VES run over TLS with a reconnect and an
// observed receiver, writing about 1.6 MB/s.
func hvRun(t testing.TB) *result.Result {
	r := sampleResult(t)
	r.Config.Protocol = "hv-ves"
	for i := range r.Timeline {
		r.Timeline[i].BytesSent = int64(1_600_000 + 10_000*(i%5))
	}
	r.HV = &result.HV{
		Addr: "127.0.0.1:6061", TLS: true, Producers: 2, Messages: 1000, SizeBytes: 8192, IntervalS: 0.01,
		Domain: "perf3gpp", Sent: result.HVCounts{Scheduled: 2000, Sent: 1990, Written: 1989, Failed: 1, NotSent: 10, Bytes: 1989 * 8204},
		NotSentBy: map[string]int64{"disconnected": 10}, MBps: 1.63, PeakMBps: 1.65,
		WriteBlocked: result.Summary{Count: 1989, P50: 0.02, P99: 0.3, Max: 2.5},
		Connect:      result.Summary{Count: 3, P50: 0.2, Max: 0.4}, Handshake: result.Summary{Count: 3, P50: 3.1, Max: 4.2},
		Connects: 3, Reconnects: 1, Disconnects: map[string]int64{"conn_reset": 1},
		Receiver: &result.HVReceiver{Source: "metrics:https://u:s3cr3t@hv-ves:6060/metrics", Received: 1988, Accepted: 1988, Lost: 1, Duplicates: new(int64),
			TravelP50Ms: 0.4, TravelP99Ms: 2.2, TravelMaxMs: 9.5},
	}
	return r
}

func TestHVSection(t *testing.T) {
	t.Parallel()
	r := hvRun(t)
	page := render1(t, r)
	checkSelfContained(t, page)
	for _, want := range []string{
		`id="hv-ves"`, "Write back-pressure and connections (ms)", "TLS handshake",
		">1 / 0<", // lost / duplicates
		"disconnected=10", "conn_reset=1", "TLS to 127.0.0.1:6061",
		"metrics:https://u:xxxxx@hv-ves:6060/metrics",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "s3cr3t") {
		t.Error("page leaks the receiver's password")
	}
	// The seed table carries the same cells as the text summary's.
	for _, v := range seed.HVValues(r) {
		if !strings.Contains(page, ">"+v+"<") {
			t.Errorf("HV seed cell %q missing", v)
		}
	}
	charts := pageCharts(t, page)
	i := slices.IndexFunc(charts, func(c chartData) bool { return c.Title == "HV-VES data rate" })
	if i < 0 {
		t.Fatalf("no HV-VES data rate chart in %q", titles(charts))
	}
	if rate := charts[i].Data[1]; len(rate) != 60 || rate[0] != 1.6 || rate[1] != 1.61 {
		t.Errorf("data rate %v..., want 1.6, 1.61 MB/s", rate[:2])
	}
	// Messages written into connections that then broke are said beside
	// the written count, as the text summary says them.
	r.HV.WrittenIntoBroken = 37
	if page := render1(t, r); !strings.Contains(page, "37 of the written messages went into connections that then broke") {
		t.Error("no word of the messages written into broken connections")
	}
	// Without latencies (no message written) the latency chart says why.
	for i := range r.Timeline {
		r.Timeline[i].P50Ms, r.Timeline[i].P99Ms, r.Timeline[i].MaxMs = 0, 0, 0
	}
	if page := render1(t, r); !strings.Contains(page, "No message of the run was written") {
		t.Error("no word on why an HV-VES run has no latency per second")
	}
	// A REST run has neither.
	plain := render1(t, sampleResult(t))
	if strings.Contains(plain, `id="hv-ves"`) || strings.Contains(plain, "HV-VES data rate") {
		t.Error("a REST run shows an HV-VES section")
	}
}

// TestHVConfigHasNoPool: HV-VES producers hold one connection each and
// get no answer, so the configuration table shows no pool or timeout, and
// the rate is in messages.
func TestHVConfigHasNoPool(t *testing.T) {
	t.Parallel()
	hv := configSection(hvRun(t))
	rest := configSection(sampleResult(t))
	keys := func(s section) []string {
		var ks []string
		for _, row := range s.Tables[0].Rows {
			ks = append(ks, row[0].Text)
		}
		return ks
	}
	for _, k := range []string{"pool", "pool wait", "timeout", "keep-alive", "rps"} {
		if slices.Contains(keys(hv), k) {
			t.Errorf("HV-VES configuration lists %q: %v", k, keys(hv))
		}
		if !slices.Contains(keys(rest), k) {
			t.Errorf("REST configuration lacks %q: %v", k, keys(rest))
		}
	}
	if !slices.Contains(keys(hv), "messages/s") {
		t.Errorf("HV-VES configuration lacks its rate: %v", keys(hv))
	}
}

// TestHVSectionLive: the live page of an HV-VES run in progress (a
// checkpoint, interrupted, with the hv section the transport contributed)
// shows the HV-VES section and its data rate chart, as the final report
// does.
func TestHVSectionLive(t *testing.T) {
	t.Parallel()
	r := hvRun(t)
	r.Interrupted = true
	r.Warnings = append(r.Warnings, "checkpoint of a run in progress")
	parts, err := PageParts(r, LiveFinished)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(parts.Main, `id="hv-ves"`) || !strings.Contains(parts.Charts, "HV-VES data rate") {
		t.Errorf("live update lacks the HV-VES section or its chart")
	}
	var page strings.Builder
	if err := LivePage(&page, r, Live{State: LiveRunning, Status: "running"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `id="hv-ves"`) {
		t.Error("live page lacks the HV-VES section")
	}
}
