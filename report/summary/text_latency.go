package summary

import (
	"errors"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/table"
)

// histogramBuckets is the number of bars of the ASCII latency histogram.
const histogramBuckets = 10

// textLatency prints the percentile spectrum of latency (from the due
// time) beside service time (from the write). Showing both makes
// coordinated omission visible: when the generator or the pool held
// requests back, latency pulls away from service time.
func textLatency(t *textWriter, r *result.Result) {
	t.section("Latency distribution (ms)")
	if !r.Latency.Recorded() && !r.Service.Recorded() {
		t.Println("  no latency recorded")
		return
	}
	lat := readHistogram(t, "latency", r.Histograms.Latency)
	svc := readHistogram(t, "service", r.Histograms.Service)
	tb := table.Table{Cols: []table.Column{table.Left(""), table.Right("from due time"), table.Right("service time"), table.Right("difference")}}
	for _, row := range spectrum(r.Latency, lat, r.Service, svc) {
		tb.Add(row...)
	}
	t.Lines(tb.Plain("  "))
	t.Println("  latency counts from each request's due time, service time from its write;")
	t.Println("  the difference is time spent waiting for the generator or a connection.")

	if buckets := logBuckets(lat, histogramBuckets); len(buckets) > 0 {
		t.section("Latency histogram (from due time; log-spaced, upper bound in ms)")
		writeBars(t, "  ", buckets)
	}
}

// readHistogram decodes a histogram for display; an unreadable one is
// noted and the summary figures are used alone. It is read sparse: the
// summary is printed at the end of every run, and a dense histogram of the
// standard geometry with its bars would raise the run's peak memory.
func readHistogram(t *textWriter, name, s string) *hdrhistogram.PackedHistogram {
	h, err := result.DecodePackedHistogram(s)
	if err != nil {
		if !errors.Is(err, result.ErrNoHistogram) {
			t.Println("  note: the " + name + " histogram is unreadable (" + err.Error() + "); showing the summary only")
		}
		return nil
	}
	return h
}

// spectrum lays out min, avg, the percentiles out to p99.999, max and
// count for both distributions. The summary is authoritative for the
// figures it carries; the extreme tail comes from the histogram when the
// result has one.
func spectrum(ls result.Summary, lh *hdrhistogram.PackedHistogram, ss result.Summary, sh *hdrhistogram.PackedHistogram) [][]string {
	type fig struct {
		label string
		get   func(result.Summary, *hdrhistogram.PackedHistogram) (float64, bool)
	}
	fromSummary := func(f func(result.Summary) float64) func(result.Summary, *hdrhistogram.PackedHistogram) (float64, bool) {
		return func(s result.Summary, _ *hdrhistogram.PackedHistogram) (float64, bool) { return f(s), s.Recorded() }
	}
	fromHist := func(p float64) func(result.Summary, *hdrhistogram.PackedHistogram) (float64, bool) {
		return func(_ result.Summary, h *hdrhistogram.PackedHistogram) (float64, bool) {
			if h == nil || h.TotalCount() == 0 {
				return 0, false
			}
			return usToMs(h.ValueAtPercentile(p)), true
		}
	}
	figs := []fig{
		{"min", fromSummary(func(s result.Summary) float64 { return s.Min })},
		{"avg", fromSummary(func(s result.Summary) float64 { return s.Avg })},
	}
	for _, p := range result.Percentiles() {
		figs = append(figs, fig{p.Label, fromSummary(p.Of)})
	}
	figs = append(figs,
		fig{"p99.99", fromHist(99.99)},
		fig{"p99.999", fromHist(99.999)},
		fig{"max", fromSummary(func(s result.Summary) float64 { return s.Max })},
	)
	rows := make([][]string, 0, len(figs)+1)
	for _, f := range figs {
		l, lok := f.get(ls, lh)
		s, sok := f.get(ss, sh)
		row := []string{f.label, na, na, ""}
		if lok {
			row[1] = format.Ms(l)
		}
		if sok {
			row[2] = format.Ms(s)
		}
		if lok && sok {
			row[3] = format.Ms(max(0, l-s))
		}
		rows = append(rows, row)
	}
	rows = append(rows, []string{"count", format.Int(ls.Count), format.Int(ss.Count), ""})
	return rows
}

// usToMs converts a histogram value (µs) into the result's unit (ms).
func usToMs(us int64) float64 { return float64(us) / 1000 }
