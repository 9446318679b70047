package summary

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
)

func TestTextBreakdowns(t *testing.T) {
	t.Parallel()
	r := &result.Result{
		Schema:   result.Schema,
		Config:   result.RunConfig{Batch: 4},
		Requests: result.Requests{Scheduled: 120, Sent: 100, OK: 100},
		Bytes:    result.Bytes{Sent: 3_000_000},
		Timeline: []result.Second{{T: 0, BytesSent: 1_000_000}, {T: 1, BytesSent: 2_500_000}},
		ByRequest: []result.RequestStats{
			{Name: "fault", Weight: 3, Requests: result.Requests{Sent: 75, OK: 75}, Latency: result.Summary{Count: 75, P50: 1.5, P99: 9}},
			{Name: "batch", Weight: 1, Requests: result.Requests{Sent: 25, Errors: 25}},
		},
		Steps: []result.Step{{Concurrency: 100, StartS: 0, Sent: 900, RPS: 30, Latency: result.Summary{P99: 12.5}}},
	}
	var buf bytes.Buffer
	if err := Text(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"events: 400 sent, 80 unsent (pool_exhausted + not_sent); data: ", "peak 2.50 MB/s",
		"By request", "| fault ", "|      3 |", "| batch ",
		"Steps (closed model", "|         100 |", "12.50",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}
