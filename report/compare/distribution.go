package compare

import (
	"errors"
	"fmt"
	"math"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// Distribution compares one side's whole distribution of request times
// with the other's, request by request, with the two-sample
// Kolmogorov-Smirnov test on the HDR histograms. It is what a comparison
// of single runs can offer; it treats requests as independent, which they
// are not (a slow second slows many), so its p-value overstates
// significance and says nothing about run-to-run variation.
type Distribution struct {
	// Metric is "latency_ms" or "service_ms".
	Metric string
	// NA and NB are the numbers of requests behind each side.
	NA, NB int64
	// D is the largest distance between the two cumulative
	// distributions (0: identical, 1: disjoint).
	D float64
	// P is the asymptotic Kolmogorov-Smirnov p-value.
	P           float64
	Significant bool
	// Shift is the largest change of B against A in percent over the
	// percentiles a result lists (result.Percentiles: p50 to p99.9; the
	// one with the largest magnitude), with the percentile it was seen at.
	Shift           float64
	ShiftPercentile float64
}

// compareDistributions merges each side's histograms and tests latency
// and service time.
func compareDistributions(a, b []*result.Result, alpha float64) ([]Distribution, []string) {
	var out []Distribution
	var notes []string
	kinds := []struct {
		metric string
		get    func(*result.Result) string
	}{
		{"latency_ms", func(r *result.Result) string { return r.Histograms.Latency }},
		{"service_ms", func(r *result.Result) string { return r.Histograms.Service }},
	}
	for _, k := range kinds {
		ha, errA := mergedHistogram(a, k.get)
		hb, errB := mergedHistogram(b, k.get)
		if err := errors.Join(errA, errB); err != nil {
			notes = append(notes, fmt.Sprintf("%s distributions not compared: %v", k.metric, err))
			continue
		}
		d := ksTest(ha, hb)
		d.Metric = k.metric
		d.Significant = d.P < alpha
		d.Shift, d.ShiftPercentile = largestShift(ha, hb)
		out = append(out, d)
	}
	return out, notes
}

// mergedHistogram merges the histograms of one side's runs.
func mergedHistogram(rs []*result.Result, get func(*result.Result) string) (*hdrhistogram.Histogram, error) {
	out := result.NewHistogram()
	for _, r := range rs {
		h, err := result.DecodeHistogram(get(r))
		if errors.Is(err, result.ErrNoHistogram) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out.Merge(h)
	}
	if out.TotalCount() == 0 {
		return nil, errors.New("no histogram recorded")
	}
	return out, nil
}

// ksTest runs the two-sample Kolmogorov-Smirnov test on two histograms
// of the standard geometry (result.NewHistogram), walking their bucket
// counts side by side; values in the same bucket are ties.
func ksTest(a, b *hdrhistogram.Histogram) Distribution {
	ca, cb := a.Export().Counts, b.Export().Counts
	na, nb := a.TotalCount(), b.TotalCount()
	var sa, sb int64
	d := 0.0
	for i := range max(len(ca), len(cb)) {
		if i < len(ca) {
			sa += ca[i]
		}
		if i < len(cb) {
			sb += cb[i]
		}
		d = math.Max(d, math.Abs(float64(sa)/float64(na)-float64(sb)/float64(nb)))
	}
	return Distribution{NA: na, NB: nb, D: d, P: ksPValue(d, na, nb)}
}

// ksPValue is the asymptotic p-value of the two-sample statistic d, with
// the small-sample correction of Stephens (1970).
func ksPValue(d float64, na, nb int64) float64 {
	if d <= 0 {
		return 1
	}
	ne := float64(na) * float64(nb) / float64(na+nb)
	en := math.Sqrt(ne)
	lambda := (en + 0.12 + 0.11/en) * d
	return kolmogorovQ(lambda)
}

// kolmogorovQ is the survival function of the Kolmogorov distribution,
// Q(λ) = 2 Σ (-1)^(j-1) exp(-2 j² λ²).
func kolmogorovQ(lambda float64) float64 {
	if lambda < 0.2 {
		return 1 // the series converges slowly here and Q is 1 to 1e-20
	}
	sum, sign := 0.0, 1.0
	for j := 1; j <= 100; j++ {
		term := sign * 2 * math.Exp(-2*float64(j*j)*lambda*lambda)
		sum += term
		if math.Abs(term) < 1e-12*math.Abs(sum) || math.Abs(term) < 1e-300 {
			break
		}
		sign = -sign
	}
	return math.Min(math.Max(sum, 0), 1)
}

// largestShift returns the change of b against a with the largest
// magnitude over the percentiles a result lists, and where it was.
func largestShift(a, b *hdrhistogram.Histogram) (pct, at float64) {
	for _, p := range result.Percentiles() {
		q := p.Q
		d := DeltaPct(float64(a.ValueAtPercentile(q)), float64(b.ValueAtPercentile(q)))
		if math.Abs(d) > math.Abs(pct) || at == 0 {
			pct, at = d, q
		}
	}
	return pct, at
}
