package report

import (
	"fmt"
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// mergeParts merges the per-kind breakdown of a request mix and the steps
// of a closed-model ramp, when every input has the same kinds or steps
// (the shards of one run do): counts are summed, latencies read off the
// merged histograms, a step's concurrency and rate summed. Inputs whose
// kinds or steps differ, or lack a histogram, leave the merged result
// without that part rather than with a guess.
func mergeParts(m *result.Result, rs []*result.Result, label func(int) string) error {
	var err error
	if m.ByRequest, err = mergeByRequest(rs, label); err != nil {
		return err
	}
	m.Steps, err = mergeSteps(rs, label)
	return err
}

func mergeByRequest(rs []*result.Result, label func(int) string) ([]result.RequestStats, error) {
	first := rs[0].ByRequest
	if len(first) == 0 {
		return nil, nil
	}
	out := make([]result.RequestStats, len(first))
	for k, q := range first {
		out[k] = result.RequestStats{Name: q.Name, Weight: q.Weight}
		var hs []string
		for _, r := range rs {
			if len(r.ByRequest) != len(first) || r.ByRequest[k].Name != q.Name || r.ByRequest[k].Histogram == "" {
				return nil, nil
			}
			o := r.ByRequest[k]
			addRequests(&out[k].Requests, o.Requests)
			for c, n := range o.Errors {
				if out[k].Errors == nil {
					out[k].Errors = map[string]int64{}
				}
				out[k].Errors[c] += n
			}
			hs = append(hs, o.Histogram)
		}
		h, enc, err := mergeEncoded(hs, label, "by_request."+q.Name)
		if err != nil {
			return nil, err
		}
		// Service time per kind keeps no histogram: the merge leaves it
		// empty (count 0) rather than guess.
		out[k].Latency, out[k].Histogram = result.Summarize(h), enc
	}
	return out, nil
}

func mergeSteps(rs []*result.Result, label func(int) string) ([]result.Step, error) {
	first := rs[0].Steps
	if len(first) == 0 {
		return nil, nil
	}
	out := make([]result.Step, len(first))
	for i, s := range first {
		out[i] = result.Step{StartS: s.StartS, DurationS: s.DurationS}
		var hs []string
		for _, r := range rs {
			if len(r.Steps) != len(first) || r.Steps[i].StartS != s.StartS || r.Steps[i].Histogram == "" {
				return nil, nil
			}
			o := r.Steps[i]
			out[i].Concurrency += o.Concurrency
			out[i].Sent += o.Sent
			out[i].OK += o.OK
			out[i].Errors += o.Errors
			hs = append(hs, o.Histogram)
		}
		out[i].RPS = math.Round(float64(out[i].Sent)/s.DurationS*100) / 100
		h, enc, err := mergeEncoded(hs, label, fmt.Sprintf("steps[%d]", i))
		if err != nil {
			return nil, err
		}
		out[i].Latency, out[i].Histogram = result.Summarize(h), enc
	}
	return out, nil
}

func addRequests(d *result.Requests, s result.Requests) {
	d.Scheduled += s.Scheduled
	d.Sent += s.Sent
	d.OK += s.OK
	d.Errors += s.Errors
	d.NotSent += s.NotSent
}

// mergeEncoded merges encoded histograms without loss (result.ReadHistogram
// records another geometry into the standard one, or says why it cannot).
func mergeEncoded(encs []string, label func(int) string, what string) (*hdrhistogram.Histogram, string, error) {
	out := result.NewHistogram()
	for i, enc := range encs {
		h, err := result.ReadHistogram(enc, result.Summary{}, what)
		if err != nil {
			return nil, "", labelled(label(i), err)
		}
		if h != nil {
			out.Merge(h)
		}
	}
	enc, err := result.EncodeHistogram(out)
	if err != nil {
		return nil, "", fmt.Errorf("merge: %s: %w", what, err)
	}
	return out, enc, nil
}
