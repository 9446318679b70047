package sample

import (
	"errors"
	"fmt"
	"mime"
	"strings"

	"github.com/vesload/vesload/internal/promtext"
)

// acceptExposition asks for the Prometheus text format first: it is what
// Spring's actuator and client_golang serve by default, and the cheapest
// to parse. OpenMetrics is accepted at a lower preference for endpoints
// that serve nothing else. The delimited protobuf format is not asked for
// and not read: every endpoint that serves it serves text too.
const acceptExposition = promtext.Accept

// families maps a sample name to the values of its series: those of
// counters, gauges and untyped families, not the buckets, quantiles, sums
// and counts of histograms and summaries.
type families map[string][]float64

// parseExposition reads a scraped body in the Prometheus text format or
// OpenMetrics text (exemplars, info and state sets included), as its
// Content-Type says.
func parseExposition(contentType string, body []byte) (families, error) {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && strings.HasPrefix(mt, "application/vnd.google.protobuf") {
		return nil, errors.New("the endpoint answered with protobuf, which vesload does not read (it asks for text)")
	}
	format := promtext.FormatOf(contentType)
	samples, err := promtext.Parse(body, format)
	if err != nil {
		if format == promtext.OpenMetrics {
			return nil, fmt.Errorf("parse OpenMetrics exposition: %w", err)
		}
		return nil, fmt.Errorf("parse text exposition: %w", err)
	}
	fams := make(families)
	for i := range samples {
		if s := &samples[i]; s.IsValue() {
			fams[s.Name] = append(fams[s.Name], s.Value)
		}
	}
	return fams, nil
}

// sum adds the values of every series of the named family, whatever its
// labels (jvm_memory_used_bytes has one per memory pool). Only gauge,
// counter and untyped values count, and only finite ones; ok is false when
// there was none.
func (f families) sum(name string) (total float64, ok bool) {
	for _, v := range f[name] {
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
