package promtext

import (
	"math"
	"mime"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// ProtoContentType is what a handler answers with when it serves the
// delimited protobuf exposition: io.prometheus.client.MetricFamily
// messages, each preceded by its length as a varint.
const ProtoContentType = "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"

// WantsProtobuf reports whether an Accept header prefers the delimited
// protobuf exposition to the text format: it names it with a quality
// above zero and no text/plain (or */*) entry has a higher one.
func WantsProtobuf(accept string) bool {
	var protoQ, textQ float64 = -1, -1
	for entry := range strings.SplitSeq(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(entry))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch {
		case mt == "application/vnd.google.protobuf" && params["proto"] == "io.prometheus.client.MetricFamily" &&
			params["encoding"] == "delimited":
			protoQ = max(protoQ, q)
		case mt == "text/plain" || mt == "*/*" || mt == "text/*":
			textQ = max(textQ, q)
		}
	}
	return protoQ > 0 && protoQ >= textQ
}

// NativeBuckets are a histogram's native buckets as the protobuf
// exposition carries them: exponential buckets of the given schema (a
// bucket's upper bound is 2^(2^-Schema) times its lower one), a zero
// bucket, and the populated positive buckets as spans of consecutive
// indexes with the counts as deltas from one bucket to the next.
type NativeBuckets struct {
	Schema        int32
	ZeroThreshold float64
	ZeroCount     uint64
	Spans         []Span
	Deltas        []int64
}

// Span is a run of consecutive native buckets: Offset is the index of its
// first bucket for the first span, the gap to the previous span after.
type Span struct {
	Offset int32
	Length uint32
}

// nativeBounds are, for schemas 1 to 3, the upper bounds of the native
// buckets within one power of two, scaled to [0.5, 1): 2^(j·2^-schema − 1),
// correctly rounded, so that a value on a bound lands in the bucket it
// closes, as in Prometheus.
var nativeBounds = [...][]float64{
	1: {0.5, 0.7071067811865476},
	2: {0.5, 0.5946035575013605, 0.7071067811865476, 0.8408964152537145},
	3: {0.5, 0.5452538663326288, 0.5946035575013605, 0.6484197773255048,
		0.7071067811865476, 0.7711054127039704, 0.8408964152537145, 0.9170040432046712},
}

// NativeIndex returns the index of the native bucket of the given schema
// (1 to 3; others are clamped) that holds v > 0: the bucket i with upper
// bound 2^(i·2^-schema), inclusive, as Prometheus numbers them.
func NativeIndex(v float64, schema int32) int32 {
	schema = min(max(schema, 1), 3)
	bounds := nativeBounds[schema]
	frac, exp := math.Frexp(v) // v = frac × 2^exp, frac in [0.5, 1)
	return int32(sort.SearchFloat64s(bounds, frac) + (exp-1)*len(bounds))
}

// BuildNative turns bucket counts by index (ascending indexes, zero
// counts allowed) into NativeBuckets of the given schema, halving the
// resolution (schema − 1 merges pairs of buckets) until at most
// maxBuckets are populated.
func BuildNative(schema int32, indexes []int32, counts []uint64, zeroThreshold float64, zeroCount uint64, maxBuckets int) NativeBuckets {
	idx, cnt := compact(indexes, counts)
	for len(idx) > maxBuckets && schema > -4 {
		schema--
		for i := range idx {
			idx[i] = (idx[i] + 1) >> 1 // ceil(i/2): the bucket (2i−1, 2i] merges into i
		}
		idx, cnt = compact(idx, cnt)
	}
	nb := NativeBuckets{Schema: schema, ZeroThreshold: zeroThreshold, ZeroCount: zeroCount}
	var prevIdx int32
	var prevCount uint64
	for i, ix := range idx {
		switch {
		case i == 0:
			nb.Spans = append(nb.Spans, Span{Offset: ix, Length: 1})
		case ix == prevIdx+1:
			nb.Spans[len(nb.Spans)-1].Length++
		default:
			nb.Spans = append(nb.Spans, Span{Offset: ix - prevIdx - 1, Length: 1})
		}
		nb.Deltas = append(nb.Deltas, int64(cnt[i])-int64(prevCount))
		prevIdx, prevCount = ix, cnt[i]
	}
	return nb
}

// compact merges equal neighbouring indexes and drops empty buckets.
func compact(indexes []int32, counts []uint64) ([]int32, []uint64) {
	outI, outC := make([]int32, 0, len(indexes)), make([]uint64, 0, len(counts))
	for i, ix := range indexes {
		if counts[i] == 0 {
			continue
		}
		if n := len(outI); n > 0 && outI[n-1] == ix {
			outC[n-1] += counts[i]
			continue
		}
		outI, outC = append(outI, ix), append(outC, counts[i])
	}
	return outI, outC
}

// protoFamily collects one family's encoded Metric messages until the
// next Header, when the MetricFamily is written out whole.
type protoFamily struct {
	name, help string
	typ        Type
	metrics    []byte // encoded Metric fields (tag 4) of the family
	scratch    []byte // one Metric being encoded
	inner      []byte // the value message inside it
}

func (f *protoFamily) reset(name string, t Type, help string) {
	f.name, f.typ, f.help = name, t, help
	f.metrics = f.metrics[:0]
}

// protoTypes maps a family type to io.prometheus.client.MetricType.
var protoTypes = map[Type]uint64{Counter: 0, Gauge: 1, Summary: 2, Untyped: 3, Histogram: 4, GaugeHistogram: 5}

// flushFamily writes the family being collected, if it has metrics, as
// one length-delimited MetricFamily.
func (w *Writer) flushFamily() {
	f := &w.fam
	if !w.proto || f.name == "" || len(f.metrics) == 0 {
		f.metrics = f.metrics[:0]
		return
	}
	typ, ok := protoTypes[f.typ]
	if !ok {
		typ = protoTypes[Untyped]
	}
	size := protowire.SizeTag(1) + protowire.SizeBytes(len(f.name)) +
		protowire.SizeTag(3) + protowire.SizeVarint(typ) + len(f.metrics)
	if f.help != "" {
		size += protowire.SizeTag(2) + protowire.SizeBytes(len(f.help))
	}
	w.b = protowire.AppendVarint(w.b, uint64(size))
	w.b = protowire.AppendTag(w.b, 1, protowire.BytesType)
	w.b = protowire.AppendString(w.b, f.name)
	if f.help != "" {
		w.b = protowire.AppendTag(w.b, 2, protowire.BytesType)
		w.b = protowire.AppendString(w.b, f.help)
	}
	w.b = protowire.AppendTag(w.b, 3, protowire.VarintType)
	w.b = protowire.AppendVarint(w.b, typ)
	w.b = append(w.b, f.metrics...)
	f.metrics = f.metrics[:0]
}

// startMetric begins a Metric of the current family, switching to a new
// family of the sample's own name when it is not the current one's.
func (w *Writer) startMetric(name string, labels []Label) {
	if name != w.fam.name {
		w.flushFamily()
		w.fam.reset(name, Untyped, "")
	}
	m := w.fam.scratch[:0]
	for _, l := range labels {
		size := protowire.SizeTag(1) + protowire.SizeBytes(len(l.Name)) + protowire.SizeTag(2) + protowire.SizeBytes(len(l.Value))
		m = protowire.AppendTag(m, 1, protowire.BytesType)
		m = protowire.AppendVarint(m, uint64(size))
		m = protowire.AppendTag(m, 1, protowire.BytesType)
		m = protowire.AppendString(m, l.Name)
		m = protowire.AppendTag(m, 2, protowire.BytesType)
		m = protowire.AppendString(m, l.Value)
	}
	w.fam.scratch = m
}

// endMetric adds the value message in fam.inner under field num and
// appends the Metric to the family.
func (w *Writer) endMetric(num protowire.Number) {
	f := &w.fam
	f.scratch = protowire.AppendTag(f.scratch, num, protowire.BytesType)
	f.scratch = protowire.AppendBytes(f.scratch, f.inner)
	f.metrics = protowire.AppendTag(f.metrics, 4, protowire.BytesType)
	f.metrics = protowire.AppendBytes(f.metrics, f.scratch)
}

// protoValue writes a counter's, gauge's or untyped sample.
func (w *Writer) protoValue(name string, labels []Label, v float64) {
	w.startMetric(name, labels)
	num := protowire.Number(5) // untyped
	switch w.fam.typ {
	case Counter:
		num = 3
	case Gauge:
		num = 2
	}
	w.fam.inner = appendDouble(w.fam.inner[:0], 1, v)
	w.endMetric(num)
}

func (w *Writer) protoSummary(name string, labels []Label, quantiles []Quantile, sum float64, count uint64) {
	w.startMetric(name, labels)
	in := w.fam.inner[:0]
	in = protowire.AppendTag(in, 1, protowire.VarintType)
	in = protowire.AppendVarint(in, count)
	in = appendDouble(in, 2, sum)
	for _, q := range quantiles {
		in = protowire.AppendTag(in, 3, protowire.BytesType)
		in = protowire.AppendVarint(in, uint64(2*(protowire.SizeTag(1)+protowire.SizeFixed64())))
		in = appendDouble(in, 1, q.Q)
		in = appendDouble(in, 2, q.Value)
	}
	w.fam.inner = in
	w.endMetric(4)
}

func (w *Writer) protoHistogram(name string, labels []Label, h HistogramValue) {
	w.startMetric(name, labels)
	in := w.fam.inner[:0]
	in = protowire.AppendTag(in, 1, protowire.VarintType)
	in = protowire.AppendVarint(in, h.Count)
	in = appendDouble(in, 2, h.Sum)
	for i, ub := range h.Bounds {
		in = protowire.AppendTag(in, 3, protowire.BytesType)
		in = protowire.AppendVarint(in, uint64(protowire.SizeTag(1)+protowire.SizeVarint(h.Cumulative[i])+
			protowire.SizeTag(2)+protowire.SizeFixed64()))
		in = protowire.AppendTag(in, 1, protowire.VarintType)
		in = protowire.AppendVarint(in, h.Cumulative[i])
		in = appendDouble(in, 2, ub)
	}
	if n := h.Native; n != nil {
		in = protowire.AppendTag(in, 5, protowire.VarintType)
		in = protowire.AppendVarint(in, protowire.EncodeZigZag(int64(n.Schema)))
		in = appendDouble(in, 6, n.ZeroThreshold)
		in = protowire.AppendTag(in, 7, protowire.VarintType)
		in = protowire.AppendVarint(in, n.ZeroCount)
		spans := n.Spans
		if len(spans) == 0 {
			spans = []Span{{}} // an empty span marks an empty histogram as native
		}
		for _, s := range spans {
			zz := protowire.EncodeZigZag(int64(s.Offset))
			in = protowire.AppendTag(in, 12, protowire.BytesType)
			in = protowire.AppendVarint(in, uint64(protowire.SizeTag(1)+protowire.SizeVarint(zz)+
				protowire.SizeTag(2)+protowire.SizeVarint(uint64(s.Length))))
			in = protowire.AppendTag(in, 1, protowire.VarintType)
			in = protowire.AppendVarint(in, zz)
			in = protowire.AppendTag(in, 2, protowire.VarintType)
			in = protowire.AppendVarint(in, uint64(s.Length))
		}
		for _, d := range n.Deltas {
			in = protowire.AppendTag(in, 13, protowire.VarintType)
			in = protowire.AppendVarint(in, protowire.EncodeZigZag(d))
		}
	}
	w.fam.inner = in
	w.endMetric(7)
}

func appendDouble(b []byte, num protowire.Number, v float64) []byte {
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, math.Float64bits(v))
}
