package sample

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/encoding/protodelim"
)

// acceptExposition asks for the Prometheus text format first: it is what
// Spring's actuator and client_golang serve by default, and the cheapest
// to parse. OpenMetrics is accepted at a lower preference for endpoints
// that serve nothing else.
const acceptExposition = "text/plain;version=0.0.4;q=1,application/openmetrics-text;version=1.0.0;q=0.5,*/*;q=0.1"

// families maps a sample name to its metric family.
type families map[string]*dto.MetricFamily

// parseExposition decodes a scraped body. Delimited protobuf goes through
// expfmt's decoder; everything else, OpenMetrics included, through expfmt's
// Prometheus text parser. That parser reads the OpenMetrics a metrics
// endpoint commonly serves (_total counters, UNIT and EOF lines) but not
// exemplars or info and stateset families; expfmt's OpenMetrics decoder
// would read those too, but it costs milliseconds per line, too much to
// run every second beside the load.
func parseExposition(contentType string, body []byte) (families, error) {
	format := expfmt.ResponseFormat(http.Header{"Content-Type": {contentType}})
	if format.FormatType() == expfmt.TypeProtoDelim {
		return decodeProto(body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		if format.FormatType() == expfmt.TypeOpenMetrics {
			return nil, fmt.Errorf("parse OpenMetrics as Prometheus text (exemplars, info and stateset are not supported): %w", err)
		}
		return nil, fmt.Errorf("parse text exposition: %w", err)
	}
	return fams, nil
}

// decodeProto reads delimited protobuf metric families. It does not use
// expfmt's decoder, which trusts each message's length prefix and would
// allocate whatever a broken or hostile endpoint announces; here no message
// may claim more than the body holds.
func decodeProto(body []byte) (families, error) {
	r := bytes.NewReader(body)
	opts := protodelim.UnmarshalOptions{MaxSize: int64(len(body))}
	fams := make(families)
	for {
		mf := new(dto.MetricFamily)
		err := opts.UnmarshalFrom(r, mf)
		if errors.Is(err, io.EOF) {
			return fams, nil
		}
		if err != nil {
			return nil, fmt.Errorf("parse protobuf exposition: %w", err)
		}
		if prev, ok := fams[mf.GetName()]; ok {
			prev.Metric = append(prev.Metric, mf.Metric...)
			continue
		}
		fams[mf.GetName()] = mf
	}
}

// sum adds the values of every series of the named family, whatever its
// labels (jvm_memory_used_bytes has one per memory pool). Only gauge,
// counter and untyped values count, and only finite ones; ok is false when
// there was none.
func (f families) sum(name string) (total float64, ok bool) {
	mf := f[name]
	if mf == nil {
		return 0, false
	}
	for _, m := range mf.GetMetric() {
		var v float64
		switch {
		case m.GetGauge() != nil:
			v = m.GetGauge().GetValue()
		case m.GetCounter() != nil:
			v = m.GetCounter().GetValue()
		case m.GetUntyped() != nil:
			v = m.GetUntyped().GetValue()
		default:
			continue
		}
		if !finite(v) {
			continue
		}
		total += v
		ok = true
	}
	return total, ok
}

// nonNegative is sum restricted to values that make sense as amounts.
func (f families) nonNegative(name string) (float64, bool) {
	v, ok := f.sum(name)
	if !ok || v < 0 || !finite(v) {
		return 0, false
	}
	return v, true
}
