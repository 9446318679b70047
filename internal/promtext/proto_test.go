package promtext

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// decodeProto reads a delimited protobuf exposition with expfmt.
func decodeProto(t *testing.T, body []byte) []*dto.MetricFamily {
	t.Helper()
	dec := expfmt.NewDecoder(bytes.NewReader(body), expfmt.NewFormat(expfmt.TypeProtoDelim))
	var out []*dto.MetricFamily
	for {
		mf := new(dto.MetricFamily)
		err := dec.Decode(mf)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("decode protobuf exposition: %v", err)
		}
		out = append(out, mf)
	}
}

// TestProtoAgreesWithText writes the same families in both formats and
// wants expfmt to read the same samples from each: the protobuf writer
// encodes what the text writer writes.
func TestProtoAgreesWithText(t *testing.T) {
	t.Parallel()
	var w Writer
	writeAll(&w)
	want := expfmtSamples(t, w.Bytes())
	w.Reset(true)
	writeAll(&w)
	fams := decodeProto(t, w.Bytes())
	byName := map[string]*dto.MetricFamily{}
	for _, mf := range fams {
		if byName[mf.GetName()] != nil {
			t.Errorf("family %s twice", mf.GetName())
		}
		byName[mf.GetName()] = mf
	}
	got := flatten(byName)
	for k, v := range want {
		if strings.Contains(k, `le="+Inf"`) {
			continue // optional in protobuf: the count stands for it
		}
		if g, ok := got[k]; !ok || !sameValue(g, v) {
			t.Errorf("%s = %v (found %v) in protobuf, %v in text", k, g, ok, v)
		}
	}
	types := map[string]dto.MetricType{"demo_requests_total": dto.MetricType_COUNTER, "demo_temperature": dto.MetricType_GAUGE,
		"demo_latency_seconds": dto.MetricType_HISTOGRAM, "demo_travel_seconds": dto.MetricType_SUMMARY}
	for name, typ := range types {
		if mf := byName[name]; mf == nil || mf.GetType() != typ || mf.GetHelp() == "" {
			t.Errorf("family %s: %v, want type %v with help", name, mf, typ)
		}
	}
	h := byName["demo_latency_seconds"].GetMetric()
	if len(h) != 2 {
		t.Fatalf("%d histogram series, want 2", len(h))
	}
	full, empty := h[0].GetHistogram(), h[1].GetHistogram()
	if full.GetSchema() != 3 || full.GetZeroThreshold() != 1e-6 || full.GetZeroCount() != 1 ||
		!slices.Equal(full.GetPositiveDelta(), []int64{1, 1, -1}) || len(full.GetPositiveSpan()) != 2 ||
		full.GetPositiveSpan()[0].GetOffset() != -80 || full.GetPositiveSpan()[0].GetLength() != 2 ||
		full.GetPositiveSpan()[1].GetOffset() != 86 || full.GetPositiveSpan()[1].GetLength() != 1 {
		t.Errorf("native buckets %v", full)
	}
	if empty.Schema == nil || len(empty.GetPositiveSpan()) != 1 || empty.GetPositiveSpan()[0].GetLength() != 0 {
		t.Errorf("an empty native histogram is not marked native: %v", empty)
	}
}

// TestNativeAgreesWithClientGolang observes the same values into a
// client_golang native histogram (bucket factor 1.1, schema 3) and into
// NativeIndex/BuildNative, and wants the same schema, spans and deltas.
func TestNativeAgreesWithClientGolang(t *testing.T) {
	t.Parallel()
	values := []float64{1e-5, 0.0003, 0.0005, 0.001, 0.00123, 0.0025, 0.003, 0.003, 0.1, 0.25, 0.5, 1, 1, 1.7, 30, 59.9}
	for i := range 200 {
		values = append(values, 0.001*math.Pow(1.09, float64(i%120))) // a wide range, many buckets
	}
	for _, max := range []uint32{0, 40} { // unlimited, then one that forces a lower resolution
		ref := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "ref", NativeHistogramBucketFactor: 1.1,
			NativeHistogramMaxBucketNumber: max, NativeHistogramZeroThreshold: 1e-6})
		byIndex := map[int32]uint64{}
		for _, v := range values {
			ref.Observe(v)
			byIndex[NativeIndex(v, 3)]++
		}
		var m dto.Metric
		if err := ref.Write(&m); err != nil {
			t.Fatal(err)
		}
		rh := m.GetHistogram()
		indexes := slices.Sorted(func(yield func(int32) bool) {
			for ix := range byIndex {
				if !yield(ix) {
					return
				}
			}
		})
		counts := make([]uint64, len(indexes))
		for i, ix := range indexes {
			counts[i] = byIndex[ix]
		}
		limit := int(max)
		if limit == 0 {
			limit = math.MaxInt
		}
		nb := BuildNative(3, indexes, counts, 1e-6, 0, limit)
		if nb.Schema != rh.GetSchema() {
			t.Errorf("max %d: schema %d, client_golang %d", max, nb.Schema, rh.GetSchema())
		}
		// client_golang fills gaps of up to two empty buckets with zero
		// deltas; compare the absolute counts by index instead of spans.
		if got, want := expand(nb.Spans, nb.Deltas), expandDTO(rh); !maps.Equal(got, want) {
			t.Errorf("max %d: buckets %v, client_golang %v", max, got, want)
		}
	}
}

func expand(spans []Span, deltas []int64) map[int32]int64 {
	out := map[int32]int64{}
	var ix int32
	var count int64
	d := 0
	for i, s := range spans {
		if i == 0 {
			ix = s.Offset
		} else {
			ix += s.Offset
		}
		for range s.Length {
			count += deltas[d]
			d++
			if count != 0 {
				out[ix] = count
			}
			ix++
		}
	}
	return out
}

func expandDTO(h *dto.Histogram) map[int32]int64 {
	var spans []Span
	for _, s := range h.GetPositiveSpan() {
		spans = append(spans, Span{s.GetOffset(), s.GetLength()})
	}
	return expand(spans, h.GetPositiveDelta())
}

func TestNativeIndex(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v      float64
		schema int32
		want   int32
	}{
		{1, 3, 0},                  // 2^0 is the upper bound of bucket 0
		{1.0001, 3, 1},             // just above: the next bucket
		{2, 3, 8},                  // 2^1 = (2^(1/8))^8
		{0.5, 3, -8},               // 2^-1
		{math.Exp2(1.0 / 8), 3, 1}, // exactly on the bound of bucket 1
		{math.Exp2(-20), 3, -160},  // 2^-20
		{1.5, 1, 2},                // schema 1: bounds 2^(i/2); 1.5 ≤ 2^(2/2)
		{1.4142135623730951, 1, 1}, // √2 is bucket 1's bound
		{math.Exp2(0.5) * 1.0001, 1, 2},
	}
	for _, tt := range tests {
		if got := NativeIndex(tt.v, tt.schema); got != tt.want {
			t.Errorf("NativeIndex(%v, %d) = %d, want %d", tt.v, tt.schema, got, tt.want)
		}
	}
}

func TestWantsProtobuf(t *testing.T) {
	t.Parallel()
	const proto = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"
	tests := map[string]bool{
		"":                                false,
		"text/plain;version=0.0.4":        false,
		proto:                             true,
		proto + ";q=0.5,text/plain;q=0.4": true,
		proto + ";q=0.3,text/plain;q=0.4": false,
		proto + ";q=0,text/plain":         false,
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text": false,
		// Prometheus 3 scraping native histograms:
		proto + ";q=0.6,application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.4,*/*;q=0.1": true,
		"application/openmetrics-text;version=1.0.0":                                                               false,
		"garbage;;;,": false,
	}
	for accept, want := range tests {
		if got := WantsProtobuf(accept); got != want {
			t.Errorf("WantsProtobuf(%q) = %v, want %v", accept, got, want)
		}
	}
}

func TestHandlerNegotiates(t *testing.T) {
	t.Parallel()
	h := Handler(func(w *Writer) {
		w.Header("up", Gauge, "Up.")
		w.Sample("up", nil, 1)
	})
	for accept, wantType := range map[string]string{"": ContentType, ProtoContentType: ProtoContentType} {
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		req.Header.Set("Accept", accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("Content-Type"); got != wantType {
			t.Errorf("Accept %q: Content-Type %q, want %q", accept, got, wantType)
		}
		format := expfmt.ResponseFormat(rec.Header())
		dec := expfmt.NewDecoder(rec.Body, format)
		var mf dto.MetricFamily
		if err := dec.Decode(&mf); err != nil || mf.GetName() != "up" || mf.GetMetric()[0].GetGauge().GetValue() != 1 {
			t.Errorf("Accept %q: %v, %v", accept, &mf, err)
		}
	}
}
