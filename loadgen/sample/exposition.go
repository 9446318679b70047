package sample

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/encoding/protowire"
)

// Accept is the Accept header of a scrape, built as Prometheus builds its
// own from its scrape protocols, in this order: the delimited protobuf
// exposition and the Prometheus text format, both cheap to decode, then
// OpenMetrics for endpoints that serve nothing else (prometheus/common's
// OpenMetrics decoder is a grammar-driven reference parser, slower by far).
const Accept = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.5," +
	"text/plain;version=0.0.4;q=0.4," +
	"application/openmetrics-text;version=1.0.0;q=0.3," +
	"application/openmetrics-text;version=0.0.1;q=0.2," +
	"*/*;q=0.1"

// MaxExposition bounds a scraped body: an actuator page is a few hundred
// kilobytes, and a runaway endpoint must not exhaust the generator.
const MaxExposition = 16 << 20

// maxOpenMetricsGrammar bounds an OpenMetrics body handed to expfmt's
// OpenMetrics decoder, a grammar-driven reference parser that takes about
// a second for a few dozen lines; see Decode.
const maxOpenMetricsGrammar = 16 << 10

// Scrape fetches a metrics endpoint once with client (whose Timeout bounds
// the whole exchange) and decodes its families. The body is read up to
// MaxExposition; an answer that is not 200, too large, or not an
// exposition Prometheus would read is an error that says which.
func Scrape(ctx context.Context, client *http.Client, url string) ([]*dto.MetricFamily, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", Accept)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxExposition+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("read body: %w", err)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	case len(body) > MaxExposition:
		return nil, fmt.Errorf("body larger than %d bytes", MaxExposition)
	}
	return Decode(resp.Header.Get("Content-Type"), body)
}

// Decode reads an exposition in the format its Content-Type names: the
// delimited protobuf exposition, OpenMetrics, or the Prometheus text
// format, which is also how an answer without a known Content-Type is
// read (as Prometheus' fallback protocol would).
//
// OpenMetrics goes through expfmt's text decoder first: what most
// endpoints serve as OpenMetrics (counters, gauges, histograms, summaries,
// # UNIT lines, the closing # EOF, which the text format reads as a
// comment) is also valid text, and the text decoder is fast. Only a body
// it refuses (exemplars, info or state sets, timestamps in seconds) goes
// to expfmt's OpenMetrics decoder, which is slow, and only up to
// maxOpenMetricsGrammar bytes.
func Decode(contentType string, body []byte) ([]*dto.MetricFamily, error) {
	format := expfmt.ResponseFormat(http.Header{"Content-Type": []string{contentType}})
	switch format.FormatType() {
	case expfmt.TypeUnknown:
		return decode(body, expfmt.FmtText, "text")
	case expfmt.TypeProtoDelim:
		if err := checkFrames(body); err != nil {
			return nil, fmt.Errorf("parse protobuf exposition: %w", err)
		}
		return decode(body, format, "protobuf")
	case expfmt.TypeOpenMetrics:
		if !endsWithEOF(body) {
			return nil, errors.New("parse OpenMetrics exposition: it does not end with # EOF")
		}
		if fams, err := decode(body, expfmt.FmtText, "OpenMetrics"); err == nil {
			return fams, nil
		}
		if len(body) > maxOpenMetricsGrammar {
			return nil, fmt.Errorf("parse OpenMetrics exposition: %d bytes that only the OpenMetrics grammar reads "+
				"(exemplars, info or state sets), more than the %d it is given; serve the Prometheus text format", len(body), maxOpenMetricsGrammar)
		}
		return decode(body, format, "OpenMetrics")
	}
	return decode(body, format, "text")
}

// endsWithEOF reports whether an OpenMetrics body ends with its # EOF
// line, with nothing after it.
func endsWithEOF(b []byte) bool {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.Equal(b, []byte("# EOF")) || bytes.HasSuffix(b, []byte("\n# EOF"))
}

// decode reads every family of body with expfmt's decoder for format;
// kind names the format in an error.
func decode(body []byte, format expfmt.Format, kind string) ([]*dto.MetricFamily, error) {
	dec := expfmt.NewDecoder(bytes.NewReader(body), format)
	var fams []*dto.MetricFamily
	for {
		mf := new(dto.MetricFamily)
		err := dec.Decode(mf)
		if errors.Is(err, io.EOF) {
			return fams, nil
		}
		if err != nil {
			return nil, fmt.Errorf("parse %s exposition: %w", kind, err)
		}
		fams = append(fams, mf)
	}
}

// checkFrames walks the length-prefixed messages of a delimited protobuf
// body and fails on one longer than what is left: expfmt's decoder sizes
// its buffer by the prefix before reading, so that a few bytes claiming
// gigabytes would be gigabytes allocated.
func checkFrames(b []byte) error {
	for len(b) > 0 {
		size, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return errors.New("bad message length")
		}
		if size > uint64(len(b)-n) {
			return fmt.Errorf("a message of %d bytes where %d are left", size, len(b)-n)
		}
		b = b[n+int(size):]
	}
	return nil
}

// families maps a family name to the values of its series: those of
// counters, gauges and untyped families, not the buckets, quantiles, sums
// and counts of histograms and summaries.
type families map[string][]float64

// valuesOf keeps the plain values of decoded families.
func valuesOf(mfs []*dto.MetricFamily) families {
	fams := make(families, len(mfs))
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			switch {
			case m.GetCounter() != nil:
				fams[mf.GetName()] = append(fams[mf.GetName()], m.GetCounter().GetValue())
			case m.GetGauge() != nil:
				fams[mf.GetName()] = append(fams[mf.GetName()], m.GetGauge().GetValue())
			case m.GetUntyped() != nil:
				fams[mf.GetName()] = append(fams[mf.GetName()], m.GetUntyped().GetValue())
			}
		}
	}
	return fams
}

// parseExposition decodes a scraped body into plain values.
func parseExposition(contentType string, body []byte) (families, error) {
	mfs, err := Decode(contentType, body)
	if err != nil {
		return nil, err
	}
	return valuesOf(mfs), nil
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
