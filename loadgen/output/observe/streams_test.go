package observe

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output/hdrlog"
	"github.com/vesload/vesload/loadgen/output/jtl"
	"github.com/vesload/vesload/report/result"
)

func TestJTLWritesEveryRequest(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w, err := jtl.NewWriter(&buf, "http://collector/eventListener/v7")
	if err != nil {
		t.Fatal(err)
	}
	j := NewJTL(w, "fault", "--jtl r.jtl")
	due := time.UnixMilli(1_700_000_000_000)
	j.Request(&engine.RequestEvent{Seq: 0, Due: due, Latency: 12 * time.Millisecond, Service: 10 * time.Millisecond, Outcome: "ok", Code: 202, BytesSent: 900, BytesRecv: 8})
	j.Request(&engine.RequestEvent{Seq: 1, Due: due.Add(10 * time.Millisecond), Latency: time.Second, Outcome: "timeout"})
	if r := j.Close(); r.Err != nil || r.Rows != 2 || r.Warning() != "" {
		t.Fatalf("report %+v (%q), want 2 rows and no warning", r, r.Warning())
	}
	rows := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(rows) != 3 || rows[0]+"\n" != jtl.Header {
		t.Fatalf("rows %q, want the header and 2 rows", rows)
	}
	if !strings.HasPrefix(rows[1], "1700000000000,12,fault,202,Accepted,") || !strings.HasPrefix(rows[2], "1700000000010,1000,fault,timeout,timeout,") {
		t.Errorf("rows %q", rows[1:])
	}
}

func TestHdrLogWritesEachSecondAtItsTime(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	start := time.UnixMilli(1_700_000_000_000)
	log, err := hdrlog.New(&buf, start, "latency")
	if err != nil {
		t.Fatal(err)
	}
	h := NewHdrLog(log, func() error { return nil }, "--hdr-log r.hlog")
	h.Begin(start)
	for s := int64(0); s < 3; s++ {
		tl := result.NewTally()
		tl.Add(result.Outcome{Class: result.OutcomeOK, Latency: time.Duration(s+1) * time.Millisecond})
		h.Timeline(result.Second{T: s}, &tl)
	}
	if r := h.Close(); r.Err != nil || r.Rows != 3 || log.Intervals() != 3 {
		t.Fatalf("report %+v, %d intervals, want 3", r, log.Intervals())
	}
	// Interval lines start with the offset from the log's base time.
	for _, want := range []string{"\nTag=latency,0.000000,1.000000,0.001000,", "\nTag=latency,1.000000,1.000000,0.002000,", "\nTag=latency,2.000000,1.000000,0.003001,"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log lacks an interval line starting %q:\n%s", want, buf.String())
		}
	}
}

// TestHdrLogWritesTheSecondsOwnHistogram: the interval written is the
// second's histogram as the engine built it, encoded while Timeline has
// it: the engine resetting the Tally for reuse right after changes
// nothing, and the line is the one the log writes for that histogram.
func TestHdrLogWritesTheSecondsOwnHistogram(t *testing.T) {
	t.Parallel()
	start := time.UnixMilli(1_700_000_000_000)
	var want, got bytes.Buffer
	wantLog, err := hdrlog.New(&want, start, "latency")
	if err != nil {
		t.Fatal(err)
	}
	gotLog, err := hdrlog.New(&got, start, "latency")
	if err != nil {
		t.Fatal(err)
	}
	h := NewHdrLog(gotLog, func() error { return nil }, "--hdr-log r.hlog")
	h.Begin(start)
	tl := result.NewTally()
	for i := range 50 {
		tl.Add(result.Outcome{Class: result.OutcomeOK, Latency: time.Duration(1+i) * 700 * time.Microsecond})
	}
	if err := wantLog.Interval(start.Add(3*time.Second), start.Add(4*time.Second), tl.Latency); err != nil {
		t.Fatal(err)
	}
	h.Timeline(result.Second{T: 3}, &tl)
	tl.Reset() // the engine takes the second back once every output has read it
	if r := h.Close(); r.Err != nil || r.Rows != 1 {
		t.Fatalf("report %+v, want 1 interval", r)
	}
	if got.String() != want.String() {
		t.Errorf("log:\n%s\nwant:\n%s", got.String(), want.String())
	}
}
