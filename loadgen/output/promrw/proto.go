package promrw

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// label is one label of a series.
type label struct{ name, value string }

// sample is one value of a series at a time in milliseconds.
type sample struct {
	value float64
	ms    int64
}

// series is one time series: its labels, sorted by name with __name__
// first among them, and its samples in time order.
type series struct {
	labels  []label
	samples []sample
}

// writeRequest is the remote write 1.0 message (prometheus.WriteRequest
// of prometheus/prompb/remote.proto): timeseries = 1; in a TimeSeries,
// labels = 1 and samples = 2; in a Label, name = 1 and value = 2; in a
// Sample, value = 1 (double) and timestamp = 2 (int64, ms). It encodes
// itself with protowire and hands client_golang's remote API the bytes
// through the sized-buffer methods that API uses when a message has them.
type writeRequest struct {
	series []series
	enc    []byte
}

// SizeVT encodes the message and returns its size.
func (w *writeRequest) SizeVT() int {
	w.enc = w.enc[:0]
	for _, s := range w.series {
		w.enc = protowire.AppendTag(w.enc, 1, protowire.BytesType)
		w.enc = protowire.AppendVarint(w.enc, uint64(s.size()))
		w.enc = s.append(w.enc)
	}
	return len(w.enc)
}

// MarshalToSizedBufferVT copies the encoding SizeVT made to the end of
// b, as generated sized-buffer marshallers fill theirs.
func (w *writeRequest) MarshalToSizedBufferVT(b []byte) (int, error) {
	return copy(b[len(b)-len(w.enc):], w.enc), nil
}

func (s series) size() int {
	n := 0
	for _, l := range s.labels {
		n += protowire.SizeTag(1) + protowire.SizeBytes(l.size())
	}
	for _, x := range s.samples {
		n += protowire.SizeTag(2) + protowire.SizeBytes(x.size())
	}
	return n
}

func (s series) append(b []byte) []byte {
	for _, l := range s.labels {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(l.size()))
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, l.name)
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, l.value)
	}
	for _, x := range s.samples {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(x.size()))
		b = protowire.AppendTag(b, 1, protowire.Fixed64Type)
		b = protowire.AppendFixed64(b, math.Float64bits(x.value))
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(x.ms))
	}
	return b
}

func (l label) size() int {
	return protowire.SizeTag(1) + protowire.SizeBytes(len(l.name)) + protowire.SizeTag(2) + protowire.SizeBytes(len(l.value))
}

// size is an encoded Sample's size: a double is always 8 bytes.
func (x sample) size() int {
	return protowire.SizeTag(1) + 8 + protowire.SizeTag(2) + protowire.SizeVarint(uint64(x.ms))
}
