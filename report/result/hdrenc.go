package result

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The cookies of HdrHistogram's V2 encoding. The low nibble's 0x10 marks
// 64-bit counts; readers mask it off.
const (
	v2EncodingCookie           = int32(hdrhistogram.V2EncodingCookieBase | 0x10)
	v2CompressedEncodingCookie = int32(hdrhistogram.V2CompressedEncodingCookieBase | 0x10)
)

// histogramZlibLevel is the zlib level of every encoded histogram: Huffman
// coding without match search. Measured on the sample latency histogram of
// the tests (1,509 bytes of payload) in a fresh process, the first encode
// raised anonymous RSS by 56-72 KB at this level, 188-220 KB at BestSpeed
// and 552-564 KB at BestCompression (which also touches 148 KB more on
// every reuse, as a reset clears its hash tables), for 872, 668 and 556
// bytes of text. A few hundred bytes of text per histogram are worth far
// less than the resident memory. Any level decodes everywhere.
const histogramZlibLevel = zlib.HuffmanOnly

// HistogramEncoder writes histograms in HdrHistogram's V2 compressed
// encoding, the form Result.Histograms carries. It exists because the
// library's own encoder builds a fresh zlib compressor (most of a megabyte
// of state) and thousands of small buffers per histogram, and Go keeps the
// pages it touched resident: a result with several histograms, written
// again at every checkpoint, would raise the peak RSS of the whole run.
// One encoder keeps one compressor and its buffers for every histogram it
// writes. The zero value is ready to use; an encoder is not safe for
// concurrent use.
type HistogramEncoder struct {
	zw      *zlib.Writer
	sparse  *hdrhistogram.PackedHistogram // populated buckets of the histogram being encoded
	payload []byte                        // header and varint counts, before compression
	packed  bytes.Buffer                  // zlib output
	frame   []byte                        // cookie, length and zlib output, before base64
}

// Encode returns h as base64 text of the V2 compressed encoding, which
// every HdrHistogram implementation reads: the uncompressed header and
// counts are byte for byte those hdrhistogram-go writes, only the zlib
// stream differs. The conversion ratio is written as 1, the one vesload's
// histograms have. A nil histogram encodes as "".
func (e *HistogramEncoder) Encode(h *hdrhistogram.Histogram) (string, error) {
	b, err := e.AppendEncode(nil, h)
	return string(b), err
}

// AppendEncode appends the text Encode returns to dst, so that a writer of
// many histograms (an HDR interval log) allocates no string per histogram.
func (e *HistogramEncoder) AppendEncode(dst []byte, h *hdrhistogram.Histogram) ([]byte, error) {
	if h == nil {
		return dst, nil
	}
	e.payload = e.appendV2Payload(e.payload[:0], h)
	e.packed.Reset()
	if e.zw == nil {
		zw, err := zlib.NewWriterLevel(&e.packed, histogramZlibLevel)
		if err != nil {
			return dst, fmt.Errorf("encode histogram: %w", err)
		}
		e.zw = zw
	} else {
		e.zw.Reset(&e.packed)
	}
	if _, err := e.zw.Write(e.payload); err != nil {
		return dst, fmt.Errorf("encode histogram: compress: %w", err)
	}
	if err := e.zw.Close(); err != nil {
		return dst, fmt.Errorf("encode histogram: compress: %w", err)
	}
	e.frame = binary.BigEndian.AppendUint32(e.frame[:0], uint32(v2CompressedEncodingCookie))
	e.frame = binary.BigEndian.AppendUint32(e.frame, uint32(e.packed.Len()))
	e.frame = append(e.frame, e.packed.Bytes()...)
	return base64.StdEncoding.AppendEncode(dst, e.frame), nil
}

// appendV2Payload appends the uncompressed V2 encoding of h to b: the
// 40-byte header, then the counts from index 0 to the index of the largest
// recorded value as ZigZag LEB128 varints, a run of two or more empty
// buckets written as its negated length.
func (e *HistogramEncoder) appendV2Payload(b []byte, h *hdrhistogram.Histogram) []byte {
	start := len(b)
	b = binary.BigEndian.AppendUint32(b, uint32(v2EncodingCookie))
	b = binary.BigEndian.AppendUint32(b, 0) // payload length, set below
	b = binary.BigEndian.AppendUint32(b, 0) // normalizing index offset: counts are not rotated
	b = binary.BigEndian.AppendUint32(b, uint32(h.SignificantFigures()))
	b = binary.BigEndian.AppendUint64(b, uint64(h.LowestTrackableValue()))
	b = binary.BigEndian.AppendUint64(b, uint64(h.HighestTrackableValue()))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(1.0))
	body := len(b)
	if sparse, ok := e.sparseCounts(h); ok {
		b = appendSparseCounts(b, sparse, layoutOf(h))
	} else {
		b = appendDenseCounts(b, h.Export().Counts)
	}
	binary.BigEndian.PutUint32(b[start+4:], uint32(len(b)-body))
	return b
}

// sparseCounts returns the populated buckets of h in the encoder's reused
// sparse histogram. Of the readers the library exports, this one touches
// no memory that is not already the encoder's: Export copies the whole
// counts array (172 KB for the standard geometry, all of it written) and
// Distribution allocates a 24-byte bar per bucket up to the largest value
// (823 KB in 17 allocations for the benchmarks' sample), while MergeFrom
// walks the counts in place and keeps only the populated buckets, in
// storage that Reset keeps for the next histogram. It reports false when
// the sparse form cannot hold h exactly (a geometry the constructors do
// not build, or counts it would drop); the caller then falls back to
// Export.
func (e *HistogramEncoder) sparseCounts(h *hdrhistogram.Histogram) (*hdrhistogram.PackedHistogram, bool) {
	lo, hi, sig := h.LowestTrackableValue(), h.HighestTrackableValue(), h.SignificantFigures()
	if lo < 1 || sig < 1 || sig > 5 {
		return nil, false
	}
	p := e.sparse
	if p == nil || p.LowestTrackableValue() != lo || p.HighestTrackableValue() != hi || p.SignificantFigures() != sig {
		p = hdrhistogram.NewPacked(lo, hi, int(sig))
		e.sparse = p
	}
	p.Reset()
	if dropped := p.MergeFrom(h); dropped != 0 || p.TotalCount() != h.TotalCount() {
		return nil, false
	}
	return p, true
}

// appendSparseCounts appends the varint counts of the populated buckets
// of p, with the empty buckets between them as runs. The payload ends at
// the last populated bucket; an empty histogram writes the one empty
// bucket 0, as the library does.
func appendSparseCounts(b []byte, p *hdrhistogram.PackedHistogram, l Layout) []byte {
	next := int64(0) // the first index not yet written
	for value, count := range p.ForEachBucket {
		if count <= 0 {
			continue
		}
		i := l.Index(value)
		b = appendZeros(b, i-next)
		b = appendZigZag(b, count)
		next = i + 1
	}
	if next == 0 {
		b = appendZigZag(b, 0)
	}
	return b
}

// appendDenseCounts appends the varint counts of a whole counts array up
// to its last non-empty bucket (bucket 0 when all are empty).
func appendDenseCounts(b []byte, counts []int64) []byte {
	end := len(counts)
	for end > 1 && counts[end-1] == 0 {
		end--
	}
	end = max(end, 1)
	var zeros int64
	for _, c := range counts[:end] {
		if c == 0 {
			zeros++
			continue
		}
		b = appendZeros(b, zeros)
		zeros = 0
		b = appendZigZag(b, c)
	}
	return appendZeros(b, zeros)
}

// Layout is HdrHistogram's bucket layout, which every implementation
// shares: bucket 0 holds a sub-bucket count of values at unit resolution,
// each later bucket the upper half of a range twice as wide, all
// flattened into one array of half-buckets. It is known from a histogram's
// lowest discernible value and significant digits alone, so encoders and
// readers of the sparse form need no dense copy to place a value.
type Layout struct {
	unitMag, halfMag int // log2 of the unit and of half the sub-bucket count
	mask             uint64
}

// LayoutOf derives the layout of a histogram with the given lowest
// discernible value and significant digits: the unit is the largest power
// of two not above the lowest value, and the sub-bucket count the smallest
// power of two that resolves 2×10^digits single units.
func LayoutOf(lowest, digits int64) Layout {
	unitMag := bits.Len64(uint64(max(lowest, 1))) - 1
	single := uint64(2 * math.Pow10(int(digits)))
	subMag := bits.Len64(single - 1) // ceil(log2(single))
	halfMag := max(subMag, 1) - 1
	return Layout{unitMag: unitMag, halfMag: halfMag, mask: uint64(2<<halfMag-1) << unitMag}
}

// layoutOf is the layout of h.
func layoutOf(h *hdrhistogram.Histogram) Layout {
	return LayoutOf(h.LowestTrackableValue(), h.SignificantFigures())
}

// bucket is the bucket that counts v.
func (l Layout) bucket(v int64) int {
	return bits.Len64(uint64(v)|l.mask) - l.unitMag - (l.halfMag + 1)
}

// Index returns the flat counts index of value v.
func (l Layout) Index(v int64) int64 {
	bucket := l.bucket(v)
	sub := v >> (bucket + l.unitMag)
	return int64(bucket+1)<<l.halfMag + sub - 1<<l.halfMag
}

// HighestEquivalent is the largest value counted in the same bucket as v,
// the lowest value of a bucket: its width is one unit in the first bucket
// and doubles with each bucket after it.
func (l Layout) HighestEquivalent(v int64) int64 {
	return v + int64(1)<<(l.bucket(v)+l.unitMag) - 1
}

// appendZeros appends a run of n empty buckets: nothing, a single zero, or
// the negated run length.
func appendZeros(b []byte, n int64) []byte {
	switch n {
	case 0:
		return b
	case 1:
		return appendZigZag(b, 0)
	default:
		return appendZigZag(b, -n)
	}
}

// appendZigZag appends v as a ZigZag LEB128 varint of at most nine bytes:
// the ninth byte carries the top eight bits whole, as HdrHistogram's
// "LEB128-64b9B" variant does (unlike encoding/binary's ten-byte form).
func appendZigZag(b []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for i := 0; i < 8; i++ {
		if u < 0x80 {
			return append(b, byte(u))
		}
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}
