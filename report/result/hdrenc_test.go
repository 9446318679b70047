package result

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"io"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/internal/golden"
)

// encodingCases are histograms of the standard geometry that exercise every
// branch of the payload: no values, one bucket, buckets over the whole
// range, the top bucket and runs of empty buckets of every length.
func encodingCases(t testing.TB) []struct {
	name string
	h    *hdrhistogram.Histogram
} {
	t.Helper()
	record := func(pairs ...int64) *hdrhistogram.Histogram {
		h := NewHistogram()
		for i := 0; i < len(pairs); i += 2 {
			if err := h.RecordValues(pairs[i], pairs[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		return h
	}
	lat, svc := sampleHistograms(t)
	wide := NewHistogram()
	for v := int64(HistogramLowestUs); v <= HistogramHighestUs; v = v*3/2 + 1 {
		if err := wide.RecordValues(v, v%97+1); err != nil {
			t.Fatal(err)
		}
	}
	return []struct {
		name string
		h    *hdrhistogram.Histogram
	}{
		{"empty", NewHistogram()},
		{"one value", record(2500, 1)},
		{"zero value", record(0, 3)},
		{"lowest value", record(HistogramLowestUs, 1)},
		{"whole range", wide},
		{"max at top of range", record(HistogramHighestUs, 2)},
		{"long zero runs", record(1, 1, 3, 1, 5000, 7, 90_000_000, 1, HistogramHighestUs, 1)},
		{"single empty buckets", record(10, 1, 12, 1, 14, 2)},
		{"large counts", record(1500, 1<<40, 1501, 1<<62)},
		{"latency sample", lat},
		{"service sample", svc},
		// Other geometries, as merged or foreign files carry them.
		{"unit 1024, 2 digits", other(1000, 1_000_000_000, 2, 999, 1000, 1023, 1024, 5000, 77_777_777, 1_000_000_000)},
		{"5 digits", other(1, 1<<40, 5, 1, 199_999, 200_000, 262_143, 262_144, 1<<40)},
		{"1 digit", other(7, 3_600_000_000, 1, 7, 8, 31, 32, 33, 1000, 3_600_000_000)},
	}
}

// other returns a histogram of another geometry holding values.
func other(lo, hi int64, sig int, values ...int64) *hdrhistogram.Histogram {
	h := hdrhistogram.New(lo, hi, sig)
	for _, v := range values {
		if err := h.RecordValue(v); err != nil {
			panic(err)
		}
	}
	return h
}

// inflate returns the uncompressed V2 payload inside text, checking the
// outer frame on the way.
func inflate(t *testing.T, text string) []byte {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < 8 {
		t.Fatalf("frame of %d bytes", len(raw))
	}
	if c := int32(binary.BigEndian.Uint32(raw)); c != v2CompressedEncodingCookie {
		t.Fatalf("cookie %#x, want %#x", c, v2CompressedEncodingCookie)
	}
	if n := binary.BigEndian.Uint32(raw[4:]); int(n) != len(raw)-8 {
		t.Fatalf("compressed length %d, frame carries %d", n, len(raw)-8)
	}
	zr, err := zlib.NewReader(bytes.NewReader(raw[8:]))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestHistogramEncoderMatchesLibrary(t *testing.T) {
	t.Parallel()
	for _, tc := range encodingCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			ours, err := EncodeHistogram(tc.h)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := tc.h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
			if err != nil {
				t.Fatal(err)
			}
			// The library reads our text back to the source histogram.
			back, err := hdrhistogram.Decode([]byte(ours))
			if err != nil {
				t.Fatalf("library cannot decode our text: %v", err)
			}
			if !back.Equals(tc.h) {
				t.Errorf("library decodes our text to a different histogram")
			}
			// Our decoder reads both encodings to the same histogram.
			fromOurs, err := DecodeHistogram(ours)
			if err != nil {
				t.Fatal(err)
			}
			fromTheirs, err := DecodeHistogram(string(theirs))
			if err != nil {
				t.Fatal(err)
			}
			if !fromOurs.Equals(fromTheirs) || !fromOurs.Equals(tc.h) {
				t.Errorf("the two encodings decode to different histograms")
			}
			// Only the compression differs: the uncompressed header and
			// payload are the library's byte for byte.
			if got, want := inflate(t, ours), inflate(t, string(theirs)); !bytes.Equal(got, want) {
				t.Errorf("payload differs from the library's\n got %x\nwant %x", got, want)
			}
		})
	}
}

// TestDenseCountsMatchSparse checks the Export fallback against the sparse
// path, which TestHistogramEncoderMatchesLibrary holds to the library.
func TestDenseCountsMatchSparse(t *testing.T) {
	t.Parallel()
	var e HistogramEncoder
	for _, tc := range encodingCases(t) {
		p, ok := e.sparseCounts(tc.h)
		if !ok {
			t.Fatalf("%s: no sparse form", tc.name)
		}
		sparse := appendSparseCounts(nil, p, layoutOf(tc.h))
		if dense := appendDenseCounts(nil, tc.h.Export().Counts); !bytes.Equal(sparse, dense) {
			t.Errorf("%s: dense counts %x, sparse %x", tc.name, dense, sparse)
		}
	}
}

func TestHistogramEncoderReuse(t *testing.T) {
	t.Parallel()
	cases := encodingCases(t)
	var e HistogramEncoder
	// Twice round, so that a long payload is followed by a short one and
	// the reverse: nothing of one histogram may leak into the next.
	for round := 0; round < 2; round++ {
		for _, tc := range cases {
			got, err := e.Encode(tc.h)
			if err != nil {
				t.Fatal(err)
			}
			want, err := EncodeHistogram(tc.h)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("round %d, %s: reused encoder wrote %q, a fresh one %q", round, tc.name, got, want)
			}
		}
	}
	if s, err := e.Encode(nil); s != "" || err != nil {
		t.Errorf("Encode(nil) = %q, %v; want \"\", nil", s, err)
	}
	dst, err := e.AppendEncode([]byte("x,"), cases[1].h)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := EncodeHistogram(cases[1].h)
	if string(dst) != "x,"+one {
		t.Errorf("AppendEncode = %q, want %q", dst, "x,"+one)
	}
}

func TestHistogramEncodingGolden(t *testing.T) {
	t.Parallel()
	h := NewHistogram()
	for _, v := range []int64{1, 2, 2, 1000, 1001, 2047, 2048, 5000, 123456, 600000000} {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	s, err := EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/histogram_v2.golden", []byte(s+"\n"))
}

func TestAppendZigZag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    int64
		want []byte
	}{
		{0, []byte{0x00}},
		{-1, []byte{0x01}},
		{1, []byte{0x02}},
		{63, []byte{0x7e}},
		{-64, []byte{0x7f}},
		{64, []byte{0x80, 0x01}},
		{-2, []byte{0x03}},
		{300, []byte{0xd8, 0x04}},
		// The ninth byte carries eight bits, with no continuation bit.
		{1<<62 - 1, []byte{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
		{1 << 62, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80}},
		{-1 << 63, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
	}
	for _, tc := range tests {
		if got := appendZigZag(nil, tc.v); !bytes.Equal(got, tc.want) {
			t.Errorf("appendZigZag(%d) = %x, want %x", tc.v, got, tc.want)
		}
	}
}

// BenchmarkEncodeHistogram compares the library's encoder with ours, one
// shot and reused, on the sample latency histogram.
func BenchmarkEncodeHistogram(b *testing.B) {
	lat, _ := sampleHistograms(b)
	b.Run("library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := lat.Encode(hdrhistogram.V2CompressedEncodingCookieBase); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("one-shot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := EncodeHistogram(lat); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reused", func(b *testing.B) {
		var e HistogramEncoder
		buf := make([]byte, 0, 4096)
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if buf, err = e.AppendEncode(buf[:0], lat); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestHighestEquivalent: the bucket ranges Layout computes from a
// histogram's geometry (the text summary's bars rely on them) are the ones
// the dense histogram reports, for the standard geometry and others.
func TestHighestEquivalent(t *testing.T) {
	t.Parallel()
	for _, g := range []struct {
		lowest, highest int64
		digits          int
	}{
		{HistogramLowestUs, HistogramHighestUs, HistogramSigFigs},
		{1, 3_600_000_000, 2},
		{1000, 60_000_000_000, 3},
		{1, 1 << 40, 5},
		{7, 1_000_000, 1},
	} {
		h := hdrhistogram.New(g.lowest, g.highest, g.digits)
		for v := g.lowest; v < g.highest/3; v = v*17/10 + 1 {
			if err := h.RecordValue(v); err != nil {
				t.Fatal(err)
			}
		}
		geo := layoutOf(h)
		n := 0
		for _, bar := range h.Distribution() {
			if bar.Count == 0 {
				continue
			}
			n++
			if got := geo.HighestEquivalent(bar.From); got != bar.To {
				t.Errorf("geometry %+v: bucket from %d ends at %d, want %d", g, bar.From, got, bar.To)
			}
		}
		if n < 10 {
			t.Errorf("geometry %+v: only %d buckets checked", g, n)
		}
	}
}
