package result

import (
	"maps"
	"strings"
	"testing"
	"time"
)

// outcomes is a small run: three successes, two HTTP failures (one with a
// VES messageId), a timeout and two refusals for want of a connection.
func outcomes() []Outcome {
	return []Outcome{
		{Class: OutcomeOK, Latency: 2 * time.Millisecond, Service: time.Millisecond, BytesSent: 100, BytesReceived: 10},
		{Class: OutcomeOK, Latency: 3 * time.Millisecond, Service: 2 * time.Millisecond, BytesSent: 100, BytesReceived: 10},
		{Class: OutcomeOK, Latency: 40 * time.Millisecond, Service: 39 * time.Millisecond, BytesSent: 100, BytesReceived: 10},
		{Class: "http_400", MessageID: "SVC0002", Latency: 5 * time.Millisecond, Service: 4 * time.Millisecond, BytesSent: 100, BytesReceived: 80},
		{Class: "http_503", Latency: 6 * time.Millisecond, Service: 5 * time.Millisecond, BytesSent: 100},
		{Class: "timeout", Latency: time.Second, Service: time.Second, BytesSent: 100},
		{Class: ClassPoolExhausted},
		{Class: ClassPoolExhausted},
	}
}

func tallyOf(outs []Outcome, notSent int64) Tally {
	var t Tally
	for _, o := range outs {
		t.Add(o)
	}
	t.AddNotSent(notSent)
	return t
}

func TestTallyAdd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		outcomes []Outcome
		notSent  int64
		want     Requests
		classes  map[string]int64
		bytes    [2]int64
	}{
		{"empty", nil, 0, Requests{}, nil, [2]int64{}},
		{"only not sent", nil, 7, Requests{Scheduled: 7, NotSent: 7}, nil, [2]int64{}},
		{"mixed", outcomes(), 2, Requests{Scheduled: 10, Sent: 6, OK: 3, Errors: 5, NotSent: 2},
			map[string]int64{"http_400": 1, "http_503": 1, "timeout": 1, ClassPoolExhausted: 2}, [2]int64{600, 110}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tallyOf(tc.outcomes, tc.notSent)
			if got.Requests() != tc.want {
				t.Errorf("Requests() = %+v, want %+v", got.Requests(), tc.want)
			}
			if len(got.Classes) != len(tc.classes) || (len(tc.classes) > 0 && !maps.Equal(got.Classes, tc.classes)) {
				t.Errorf("Classes = %v, want %v", got.Classes, tc.classes)
			}
			if b := [2]int64{got.BytesSent, got.BytesReceived}; b != tc.bytes {
				t.Errorf("bytes = %v, want %v", b, tc.bytes)
			}
			if err := got.AccountingError(); err != nil {
				t.Errorf("AccountingError: %v", err)
			}
		})
	}
}

func TestTallyDistributions(t *testing.T) {
	t.Parallel()
	got := tallyOf(outcomes(), 0)
	if n := got.Latency.TotalCount(); n != 6 {
		t.Errorf("latency holds %d values, want the 6 sent requests", n)
	}
	if got.Latency.Max() < 999000 || got.Latency.Min() != 2000 {
		t.Errorf("latency range [%d, %d] µs, want [2000, ~1000000]", got.Latency.Min(), got.Latency.Max())
	}
	if got.Service.Min() != 1000 {
		t.Errorf("service min %d µs, want 1000", got.Service.Min())
	}
	if got.MessageIDs["SVC0002"] != 1 || len(got.MessageIDs) != 1 {
		t.Errorf("MessageIDs = %v, want SVC0002:1", got.MessageIDs)
	}
}

func TestTallyMergeEqualsAddingAll(t *testing.T) {
	t.Parallel()
	all := outcomes()
	for split := 0; split <= len(all); split++ {
		a, b := tallyOf(all[:split], 1), tallyOf(all[split:], 2)
		a.Merge(&b)
		whole := tallyOf(all, 3)
		if a.Requests() != whole.Requests() || !maps.Equal(a.Classes, whole.Classes) ||
			!maps.Equal(a.MessageIDs, whole.MessageIDs) || a.BytesSent != whole.BytesSent ||
			a.BytesReceived != whole.BytesReceived || !a.Latency.Equals(whole.Latency) || !a.Service.Equals(whole.Service) {
			t.Errorf("split at %d: merged %+v, want %+v", split, a.Requests(), whole.Requests())
		}
		if err := a.AccountingError(); err != nil {
			t.Errorf("split at %d: %v", split, err)
		}
	}
}

func TestTallyMergeIntoZero(t *testing.T) {
	t.Parallel()
	var z Tally
	src := tallyOf(outcomes(), 0)
	z.Merge(&src)
	if z.Requests() != src.Requests() || !z.Latency.Equals(src.Latency) {
		t.Errorf("zero.Merge(x) = %+v, want %+v", z.Requests(), src.Requests())
	}
	z.Classes["timeout"]++
	if src.Classes["timeout"] != 1 {
		t.Errorf("Merge shares its source's map")
	}
}

func TestTallyCloneSharesNothing(t *testing.T) {
	t.Parallel()
	orig := tallyOf(outcomes(), 0)
	c := orig.Clone()
	c.Add(Outcome{Class: "timeout", MessageID: "SVC0002", Latency: time.Millisecond})
	if orig.Classes["timeout"] != 1 || orig.MessageIDs["SVC0002"] != 1 || orig.Latency.TotalCount() != 6 || orig.Sent != 6 {
		t.Errorf("adding to a clone changed the original: %+v %v %v", orig.Requests(), orig.Classes, orig.MessageIDs)
	}
	if c.Classes["timeout"] != 2 || c.Latency.TotalCount() != 7 {
		t.Errorf("clone did not count: %v, %d values", c.Classes, c.Latency.TotalCount())
	}
	var z Tally
	if zc := z.Clone(); zc.Requests() != (Requests{}) || zc.Latency != nil {
		t.Errorf("clone of a zero Tally = %+v", zc)
	}
}

func TestTallyReset(t *testing.T) {
	t.Parallel()
	tl := tallyOf(outcomes(), 4)
	lat := tl.Latency
	tl.Reset()
	if tl.Requests() != (Requests{}) || len(tl.Classes) != 0 || len(tl.MessageIDs) != 0 ||
		tl.BytesSent != 0 || tl.Latency.TotalCount() != 0 || tl.Service.TotalCount() != 0 {
		t.Errorf("Reset left %+v %v", tl.Requests(), tl.Classes)
	}
	if tl.Latency != lat {
		t.Errorf("Reset replaced the histogram instead of reusing it")
	}
	if err := tl.AccountingError(); err != nil {
		t.Errorf("a reset Tally is not balanced: %v", err)
	}
}

func TestTallyAccountingError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(*Tally)
		want   string
	}{
		{"balanced", func(*Tally) {}, ""},
		{"lost request", func(t *Tally) { t.Scheduled++ }, "scheduled 11 != sent 6 + pool_exhausted 2 + not_sent 2 (+1 unaccounted)"},
		{"errors not the sum of classes", func(t *Tally) { t.Classes["other"]++; t.Scheduled++; t.Sent++ }, "errors 5 != 6, the sum of the error classes"},
		{"sent without outcome", func(t *Tally) { t.Sent++; t.Scheduled++ }, "sent 7 != ok 3 + errors 5 - pool_exhausted 2"},
		{"latency without a request", func(t *Tally) { t.Latency.RecordValue(5) }, "sent 6 < 7 latency values"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tl := tallyOf(outcomes(), 2)
			tc.mutate(&tl)
			err := tl.AccountingError()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("AccountingError = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("AccountingError = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestTallyAddAborted(t *testing.T) {
	t.Parallel()
	tl := tallyOf(outcomes(), 0)
	tl.AddAborted(3)
	tl.AddAborted(0)
	want := Requests{Scheduled: 11, Sent: 9, OK: 3, Errors: 8}
	if tl.Requests() != want || tl.Classes[ClassAborted] != 3 || tl.Latency.TotalCount() != 6 {
		t.Errorf("after 3 aborted: %+v %v, %d latency values; want %+v, 3 aborted, 6 values",
			tl.Requests(), tl.Classes, tl.Latency.TotalCount(), want)
	}
	if err := tl.AccountingError(); err != nil {
		t.Errorf("AccountingError: %v", err)
	}
}

func TestMicros(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    time.Duration
		want int64
	}{
		{0, HistogramLowestUs},
		{-time.Second, HistogramLowestUs},
		{1499 * time.Nanosecond, 1},
		{1500 * time.Nanosecond, 2},
		{time.Second, 1000000},
		{time.Hour, HistogramHighestUs},
	}
	for _, tc := range tests {
		if got := Micros(tc.d); got != tc.want {
			t.Errorf("Micros(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

func TestTallyAddAllocatesNothing(t *testing.T) {
	tl := NewTally()
	outs := outcomes()
	for _, o := range outs {
		tl.Add(o)
	}
	allocs := testing.AllocsPerRun(100, func() {
		for _, o := range outs {
			tl.Add(o)
		}
	})
	if allocs != 0 {
		t.Errorf("Add allocates %.1f times per run of known outcomes, want 0", allocs)
	}
}

func BenchmarkTallyAdd(b *testing.B) {
	tl := NewTally()
	o := Outcome{Class: OutcomeOK, Latency: 3 * time.Millisecond, Service: 2 * time.Millisecond, BytesSent: 1024}
	b.ReportAllocs()
	for b.Loop() {
		tl.Add(o)
	}
}

// TestTallyDisconnectedIsNeverSent: an HV-VES message whose connection was
// down is, like pool_exhausted, an error that was never sent, with no
// latency, and the accounting holds.
func TestTallyDisconnectedIsNeverSent(t *testing.T) {
	t.Parallel()
	tl := NewTally()
	tl.Add(Outcome{Class: OutcomeOK, Latency: time.Millisecond, Service: time.Millisecond, BytesSent: 10})
	tl.Add(Outcome{Class: ClassDisconnected, Latency: time.Second})
	tl.Add(Outcome{Class: ClassPoolExhausted, Latency: time.Second})
	if tl.Scheduled != 3 || tl.Sent != 1 || tl.Errors != 2 || tl.Latency.TotalCount() != 1 {
		t.Errorf("tally %+v", tl.Requests())
	}
	if err := tl.AccountingError(); err != nil {
		t.Error(err)
	}
	for class, want := range map[string]bool{ClassDisconnected: true, ClassPoolExhausted: true, ClassTimeout: false, OutcomeOK: false} {
		if NeverSent(class) != want {
			t.Errorf("NeverSent(%s) = %v", class, !want)
		}
	}
}

// TestSecondTallySplitsByOutcome: a second's Tally keeps the latency of
// the successes and of the failures apart and counts the failures by
// class and messageId together; merging, cloning and resetting keep the
// split, and a plain Tally has none.
func TestSecondTallySplitsByOutcome(t *testing.T) {
	t.Parallel()
	outs := outcomes()
	sec := NewSecondTally()
	for _, o := range outs {
		sec.Add(o)
	}
	wantFailures := map[Failure]int64{
		{Class: "http_400", MessageID: "SVC0002"}: 1, {Class: "http_503"}: 1,
		{Class: "timeout"}: 1, {Class: ClassPoolExhausted}: 2,
	}
	for _, tc := range []struct {
		name string
		tl   Tally
	}{
		{"added", sec},
		{"merged", func() Tally { m := NewSecondTally(); m.Merge(&sec); return m }()},
		{"cloned", sec.Clone()},
	} {
		if got := tc.tl.OKLatency.TotalCount(); got != 3 {
			t.Errorf("%s: %d ok latencies, want 3", tc.name, got)
		}
		// pool_exhausted has no latency: three failures were sent.
		if got, max := tc.tl.ErrorLatency.TotalCount(), tc.tl.ErrorLatency.Max(); got != 3 || max < 999_000 {
			t.Errorf("%s: %d failed latencies (max %d µs), want 3 with the 1 s timeout", tc.name, got, max)
		}
		if !maps.Equal(tc.tl.Failures, wantFailures) {
			t.Errorf("%s: failures %v, want %v", tc.name, tc.tl.Failures, wantFailures)
		}
	}
	plain := tallyOf(outs, 0)
	merged := NewTally()
	merged.Merge(&sec)
	for _, p := range []Tally{plain, merged} {
		if p.OKLatency != nil || p.ErrorLatency != nil || p.Failures != nil {
			t.Errorf("a plain Tally got the split: %+v", p)
		}
	}
	sec.Reset()
	if sec.OKLatency == nil || sec.OKLatency.TotalCount() != 0 || sec.ErrorLatency.TotalCount() != 0 || sec.Failures == nil || len(sec.Failures) != 0 {
		t.Errorf("reset second %+v, want the split kept and empty", sec)
	}
}

func TestSecondTallyAddAllocatesNothing(t *testing.T) {
	tl := NewSecondTally()
	outs := outcomes()
	for _, o := range outs {
		tl.Add(o)
	}
	allocs := testing.AllocsPerRun(100, func() {
		for _, o := range outs {
			tl.Add(o)
		}
	})
	if allocs != 0 {
		t.Errorf("Add allocates %.1f times per run of known outcomes, want 0", allocs)
	}
}
