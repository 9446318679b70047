package promtext

import (
	"bytes"
	"math"
	"net/http"
	"strconv"
	"sync"
)

// ContentType is what a handler serving Writer output answers with: the
// Prometheus text format, version 0.0.4.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Type is a metric family's type, as a TYPE line names it.
type Type uint8

// The family types of the two text formats. Untyped is the text format's
// name for OpenMetrics' unknown.
const (
	Untyped Type = iota
	Counter
	Gauge
	Histogram
	Summary
	GaugeHistogram // OpenMetrics only
	Info           // OpenMetrics only
	StateSet       // OpenMetrics only
)

var typeNames = [...]string{
	Untyped: "untyped", Counter: "counter", Gauge: "gauge", Histogram: "histogram",
	Summary: "summary", GaugeHistogram: "gaugehistogram", Info: "info", StateSet: "stateset",
}

// String returns the type's name on a TYPE line.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// Label is one label name and value of a sample.
type Label struct {
	Name, Value string
}

// Quantile is one quantile of a summary: Q in [0, 1] and its value.
type Quantile struct {
	Q, Value float64
}

// Writer renders metric families in the text format into a buffer that
// it reuses from one exposition to the next. Its zero value is ready.
// The caller writes a family's Header before its samples, and each family
// once.
type Writer struct {
	b     []byte
	proto bool        // the delimited protobuf exposition instead of text
	fam   protoFamily // protobuf: the family being written
}

// Reset empties the buffer, keeping its memory, and sets the format of
// what follows: text, or with protobuf the delimited protobuf exposition
// (the one that carries native histograms).
func (w *Writer) Reset(protobuf bool) {
	w.b = w.b[:0]
	w.proto = protobuf
	w.fam.reset("", Untyped, "")
}

// Bytes returns what was written since the last Reset; it is valid until
// the next write.
func (w *Writer) Bytes() []byte {
	w.flushFamily()
	return w.b
}

// Header writes the HELP and TYPE lines of a family.
func (w *Writer) Header(name string, t Type, help string) {
	if w.proto {
		w.flushFamily()
		w.fam.reset(name, t, help)
		return
	}
	w.b = append(w.b, "# HELP "...)
	w.b = append(w.b, name...)
	w.b = append(w.b, ' ')
	w.b = appendEscaped(w.b, help, false)
	w.b = append(w.b, "\n# TYPE "...)
	w.b = append(w.b, name...)
	w.b = append(w.b, ' ')
	w.b = append(w.b, t.String()...)
	w.b = append(w.b, '\n')
}

// Single writes a family of one series without labels: most of what a
// process publishes about itself (a gauge of memory, a counter of
// requests) is that.
func (w *Writer) Single(name string, t Type, help string, v float64) {
	w.Header(name, t, help)
	w.Sample(name, nil, v)
}

// Sample writes one sample line: name{labels} value.
func (w *Writer) Sample(name string, labels []Label, v float64) {
	if w.proto {
		w.protoValue(name, labels, v)
		return
	}
	w.sample(name, labels, Label{}, v)
}

// Count writes one sample line with an integer value, exactly.
func (w *Writer) Count(name string, labels []Label, n uint64) {
	if w.proto {
		w.protoValue(name, labels, float64(n))
		return
	}
	w.sampleCount(name, labels, Label{}, n)
}

// HistogramValue is one histogram series at a scrape.
type HistogramValue struct {
	// Bounds are the classic buckets' upper bounds, ascending, without
	// +Inf; Cumulative[i] counts the observations ≤ Bounds[i].
	Bounds     []float64
	Cumulative []uint64
	Sum        float64
	Count      uint64
	// Native holds the native (exponential) buckets, or nil. Only the
	// protobuf exposition carries them; the text format has the classic
	// buckets only.
	Native *NativeBuckets
}

// Histogram writes one histogram series: in text, its cumulative buckets
// (+Inf added, holding Count), then _sum and _count.
func (w *Writer) Histogram(name string, labels []Label, h HistogramValue) {
	if w.proto {
		w.protoHistogram(name, labels, h)
		return
	}
	bucket := name + "_bucket"
	var le [32]byte
	for i, ub := range h.Bounds {
		w.sampleCount(bucket, labels, Label{"le", string(FormatFloat(le[:0], ub))}, h.Cumulative[i])
	}
	w.sampleCount(bucket, labels, Label{"le", "+Inf"}, h.Count)
	w.Sample(name+"_sum", labels, h.Sum)
	w.Count(name+"_count", labels, h.Count)
}

// Summary writes the samples of one summary series: its quantiles, then
// _sum and _count.
func (w *Writer) Summary(name string, labels []Label, quantiles []Quantile, sum float64, count uint64) {
	if w.proto {
		w.protoSummary(name, labels, quantiles, sum, count)
		return
	}
	var q [32]byte
	for _, qv := range quantiles {
		w.sample(name, labels, Label{"quantile", string(FormatFloat(q[:0], qv.Q))}, qv.Value)
	}
	w.Sample(name+"_sum", labels, sum)
	w.Count(name+"_count", labels, count)
}

func (w *Writer) sample(name string, labels []Label, extra Label, v float64) {
	w.b = append(w.b, name...)
	w.b = appendLabels(w.b, labels, extra)
	w.b = append(w.b, ' ')
	w.b = FormatFloat(w.b, v)
	w.b = append(w.b, '\n')
}

func (w *Writer) sampleCount(name string, labels []Label, extra Label, n uint64) {
	w.b = append(w.b, name...)
	w.b = appendLabels(w.b, labels, extra)
	w.b = append(w.b, ' ')
	w.b = strconv.AppendUint(w.b, n, 10)
	w.b = append(w.b, '\n')
}

// appendLabels writes {a="x",b="y"} with extra last when it has a name,
// or nothing without labels.
func appendLabels(b []byte, labels []Label, extra Label) []byte {
	if len(labels) == 0 && extra.Name == "" {
		return b
	}
	b = append(b, '{')
	for i, l := range labels {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendLabel(b, l)
	}
	if extra.Name != "" {
		if len(labels) > 0 {
			b = append(b, ',')
		}
		b = appendLabel(b, extra)
	}
	return append(b, '}')
}

func appendLabel(b []byte, l Label) []byte {
	b = append(b, l.Name...)
	b = append(b, '=', '"')
	b = appendEscaped(b, l.Value, true)
	return append(b, '"')
}

// appendEscaped escapes a backslash and a line feed, and in a label value
// a double quote too, as the text format requires.
func appendEscaped(b []byte, s string, quote bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b = append(b, `\\`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '"' && quote:
			b = append(b, `\"`...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// FormatFloat appends v as Prometheus writes a sample value or a le or
// quantile label: the shortest representation that reads back exactly,
// and +Inf, -Inf and NaN for the special values.
func FormatFloat(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, "NaN"...)
	case math.IsInf(v, 1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// Handler serves what render writes, rendered afresh on every request:
// the delimited protobuf exposition when the scraper asks for it (a
// Prometheus that scrapes native histograms does), else the text format.
// Rendering is serialised, so that one buffer serves every scrape; the
// answer is sent from a copy, so that a slow scraper holds up no other.
func Handler(render func(w *Writer)) http.Handler {
	var mu sync.Mutex
	var w Writer
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		protobuf := WantsProtobuf(r.Header.Get("Accept"))
		mu.Lock()
		w.Reset(protobuf)
		render(&w)
		body := bytes.Clone(w.Bytes())
		mu.Unlock()
		if protobuf {
			rw.Header().Set("Content-Type", ProtoContentType)
		} else {
			rw.Header().Set("Content-Type", ContentType)
		}
		rw.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = rw.Write(body) // the scraper went away: nothing to do
	})
}
