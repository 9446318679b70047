package result

import (
	"errors"
	"fmt"
	"maps"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// ErrMissingHistogram is the end of the error for a result document that
// summarizes values without carrying their histogram; the error reads
// "has N latency values but no latency histogram: …" after the document's
// name.
var ErrMissingHistogram = errors.New("its percentiles cannot be merged")

// TallyOf reads back the accounting that result document r carries: its
// request counts, error classes, messageIds, bytes and both distributions.
// A merge of parallel runs adds these up with Tally.Merge, so that it
// counts exactly as the engine did. Histograms of another geometry are
// recorded into the standard one; a value outside it is an error, as is a
// summary that counts values without a histogram to merge them from.
func TallyOf(r *Result) (Tally, error) {
	t := Tally{
		Scheduled: r.Requests.Scheduled, Sent: r.Requests.Sent, OK: r.Requests.OK,
		Errors: r.Requests.Errors, NotSent: r.Requests.NotSent, InFlight: r.Requests.InFlight,
		Classes: maps.Clone(r.Errors), MessageIDs: maps.Clone(r.MessageIDs),
		BytesSent: r.Bytes.Sent, BytesReceived: r.Bytes.Received,
	}
	var err error
	if t.Latency, err = ReadHistogram(r.Histograms.Latency, r.Latency, "latency"); err != nil {
		return Tally{}, err
	}
	if t.Service, err = ReadHistogram(r.Histograms.Service, r.Service, "service"); err != nil {
		return Tally{}, err
	}
	return t, nil
}

// ReadHistogram decodes enc into the standard geometry; nil when the
// document carries none and summarizes no values either.
func ReadHistogram(enc string, sum Summary, kind string) (*hdrhistogram.Histogram, error) {
	h, err := DecodeHistogram(enc)
	if errors.Is(err, ErrNoHistogram) {
		if sum.Count > 0 {
			return nil, fmt.Errorf("has %d %s values but no %s histogram: %w", sum.Count, kind, kind, ErrMissingHistogram)
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("histograms.%s: %w", kind, err)
	}
	if h.LowestTrackableValue() == HistogramLowestUs && h.HighestTrackableValue() == HistogramHighestUs &&
		h.SignificantFigures() == HistogramSigFigs {
		return h, nil
	}
	std := NewHistogram()
	if dropped := std.Merge(h); dropped > 0 {
		return nil, fmt.Errorf("%d %s values lie outside 1 µs–10 min and cannot be merged", dropped, kind)
	}
	return std, nil
}

// Document writes t's accounting into r, the inverse of TallyOf: request
// counts, error classes (never nil), messageIds, bytes, the summaries and
// the distributions, encoded by enc (none for a Tally that holds none). The
// engine writes a run's result with it and vesload merge the sum of
// several, so both write the same fields the same way.
func (t *Tally) Document(r *Result, enc *HistogramEncoder) error {
	r.Requests = t.Requests()
	r.Errors = maps.Clone(t.Classes)
	if r.Errors == nil {
		r.Errors = map[string]int64{}
	}
	r.MessageIDs = nil
	if len(t.MessageIDs) > 0 {
		r.MessageIDs = maps.Clone(t.MessageIDs)
	}
	r.Bytes = Bytes{Sent: t.BytesSent, Received: t.BytesReceived}
	r.Latency, r.Service = Summarize(t.Latency), Summarize(t.Service)
	var err error
	if r.Histograms.Latency, err = enc.Encode(t.Latency); err != nil {
		return err
	}
	r.Histograms.Service, err = enc.Encode(t.Service)
	return err
}
