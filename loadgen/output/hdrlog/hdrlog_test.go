package hdrlog

import (
	"bytes"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// TestHdrLogMatchesLibraryWriter writes the same intervals through HdrLog
// and through the library's log writer: the files agree byte for byte but
// for the compressed payloads, and those decode to the same histograms.
func TestHdrLogMatchesLibraryWriter(t *testing.T) {
	t.Parallel()
	start := time.UnixMilli(1700000000123)
	intervals := []struct {
		name   string
		offset time.Duration
		values []int64
	}{
		{"empty second", 0, nil},
		{"one value", time.Second, []int64{2500}},
		{"spread", 2 * time.Second, []int64{1, 900, 1500, 40000, 250000, result.HistogramHighestUs}},
		{"late and short", 3*time.Second + 250*time.Millisecond, []int64{12, 12, 13}},
	}
	var ours, theirs bytes.Buffer
	l, err := New(&ours, start, "latency")
	if err != nil {
		t.Fatal(err)
	}
	lw := hdrhistogram.NewHistogramLogWriter(&theirs)
	lw.SetBaseTime(start.UnixMilli())
	// The header is the library's in both; only interval lines are compared.
	header := ours.Len()
	h := result.NewHistogram()
	var want []*hdrhistogram.Histogram
	for _, iv := range intervals {
		for _, v := range iv.values {
			if err := h.RecordValue(v); err != nil {
				t.Fatal(err)
			}
		}
		from := start.Add(iv.offset)
		if err := l.Interval(from, from.Add(time.Second), h); err != nil {
			t.Fatalf("%s: %v", iv.name, err)
		}
		// The library's writer takes the interval's times and tag from
		// the histogram itself.
		h.SetStartTimeMs(from.UnixMilli())
		h.SetEndTimeMs(from.Add(time.Second).UnixMilli())
		h.SetTag("latency")
		if err := lw.OutputIntervalHistogram(h); err != nil {
			t.Fatal(err)
		}
		want = append(want, h.Clone())
		h.Reset()
	}
	oursLines := strings.Split(strings.TrimSuffix(ours.String()[header:], "\n"), "\n")
	theirLines := strings.Split(strings.TrimSuffix(theirs.String(), "\n"), "\n")
	if len(oursLines) != len(intervals) || len(theirLines) != len(intervals) {
		t.Fatalf("%d and %d interval lines, want %d", len(oursLines), len(theirLines), len(intervals))
	}
	for i, iv := range intervals {
		o, th := oursLines[i], theirLines[i]
		oc, tc := strings.LastIndexByte(o, ','), strings.LastIndexByte(th, ',')
		if o[:oc] != th[:tc] {
			t.Errorf("%s: line starts %q, the library's %q", iv.name, o[:oc], th[:tc])
		}
		got, err := hdrhistogram.Decode([]byte(o[oc+1:]))
		if err != nil {
			t.Fatalf("%s: payload does not decode: %v", iv.name, err)
		}
		if !got.Equals(want[i]) {
			t.Errorf("%s: payload decodes to a different histogram", iv.name)
		}
	}
	// And the library's reader reads the whole file.
	r := hdrhistogram.NewHistogramLogReader(&ours)
	for i := range intervals {
		got, err := r.NextIntervalHistogram()
		if err != nil || got == nil {
			t.Fatalf("interval %d: %v, %v", i, got, err)
		}
		if !got.Equals(want[i]) || got.Tag() != "latency" {
			t.Errorf("interval %d reads back as a different histogram (tag %q)", i, got.Tag())
		}
	}
}

func TestHdrLogRejectsBadTag(t *testing.T) {
	t.Parallel()
	for _, tag := range []string{"a,b", "two words", "line\nbreak", ",", " "} {
		if _, err := New(&bytes.Buffer{}, time.Unix(0, 0), tag); err == nil {
			t.Errorf("tag %q accepted", tag)
		}
	}
	if _, err := New(&bytes.Buffer{}, time.Unix(0, 0), ""); err != nil {
		t.Errorf("no tag: %v", err)
	}
}

// BenchmarkHdrLogInterval is the cost of one interval line: no compressor
// is built after the first.
func BenchmarkHdrLogInterval(b *testing.B) {
	l, err := New(&bytes.Buffer{}, time.UnixMilli(0), "latency")
	if err != nil {
		b.Fatal(err)
	}
	h := result.NewHistogram()
	for v := int64(1000); v < 50000; v += 37 {
		_ = h.RecordValue(v)
	}
	var w bytes.Buffer
	l.w = &w
	b.ReportAllocs()
	for b.Loop() {
		w.Reset()
		if err := l.Interval(time.UnixMilli(0), time.UnixMilli(1000), h); err != nil {
			b.Fatal(err)
		}
	}
}

func TestHdrLogRoundTrip(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	start := time.UnixMilli(1700000000000)
	l, err := New(&buf, start, "latency")
	if err != nil {
		t.Fatal(err)
	}
	h := result.NewHistogram()
	for i := 0; i < 3; i++ {
		for v := int64(1); v <= 100; v++ {
			h.RecordValue(v * int64(i+1) * 1000)
		}
		if err := l.Interval(start.Add(time.Duration(i)*time.Second), start.Add(time.Duration(i+1)*time.Second), h); err != nil {
			t.Fatal(err)
		}
		h.Reset()
	}
	r := hdrhistogram.NewHistogramLogReader(&buf)
	var maxes []int64
	for {
		got, err := r.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if got == nil {
			break
		}
		if got.TotalCount() != 100 {
			t.Fatalf("interval holds %d values, want 100", got.TotalCount())
		}
		maxes = append(maxes, got.Max())
	}
	if len(maxes) != 3 || l.Intervals() != 3 || !(maxes[0] < maxes[1] && maxes[1] < maxes[2]) {
		t.Fatalf("read back %d intervals with maxima %v", len(maxes), maxes)
	}
}
