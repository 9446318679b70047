package result

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The cookies of HdrHistogram's V2 encoding. The low nibble's 0x10 marks
// 64-bit counts; readers mask it off.
const (
	v2EncodingCookie           = int32(hdrhistogram.V2EncodingCookieBase | 0x10)
	v2CompressedEncodingCookie = int32(hdrhistogram.V2CompressedEncodingCookieBase | 0x10)
	v2HeaderSize               = 40
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
	payload []byte       // header and varint counts, before compression
	packed  bytes.Buffer // zlib output
	frame   []byte       // cookie, length and zlib output, before base64
	text    []byte       // base64 of frame
}

// Encode returns h as base64 text of the V2 compressed encoding, byte for
// byte what other HdrHistogram tools read. A nil histogram encodes as "".
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
	e.payload = appendV2Payload(e.payload[:0], h)
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
func appendV2Payload(b []byte, h *hdrhistogram.Histogram) []byte {
	start := len(b)
	b = binary.BigEndian.AppendUint32(b, uint32(v2EncodingCookie))
	b = binary.BigEndian.AppendUint32(b, 0) // payload length, set below
	b = binary.BigEndian.AppendUint32(b, 0) // normalizing index offset: counts are not rotated
	b = binary.BigEndian.AppendUint32(b, uint32(h.SignificantFigures()))
	b = binary.BigEndian.AppendUint64(b, uint64(h.LowestTrackableValue()))
	b = binary.BigEndian.AppendUint64(b, uint64(h.HighestTrackableValue()))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(1.0))
	body := len(b)
	b = appendCounts(b, h)
	binary.BigEndian.PutUint32(b[start+4:], uint32(len(b)-body))
	return b
}

// appendCounts appends the varint counts of h up to its last non-empty
// bucket, where the format ends the payload (an empty histogram writes the
// one empty bucket 0, as the library does). Export is the cheapest reader
// the library offers: one copy of the counts array (172 KB for the
// standard geometry, a single allocation), where Distribution allocates a
// 24-byte bar per bucket up to the largest value and grows its slice as it
// goes (823 KB and 17 allocations for the sample latency histogram of the
// benchmarks); the other exported readers give percentiles, not buckets.
func appendCounts(b []byte, h *hdrhistogram.Histogram) []byte {
	counts := h.Export().Counts
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
