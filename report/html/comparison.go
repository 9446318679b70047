package html

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"slices"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/seed"
)

// Comparison writes an A/B comparison as one self-contained HTML page:
// the comparison table with its verdicts and notes, both sides' latency
// percentile spectra and per-second p99 overlaid, and the runs behind
// each side. a and b are the runs cmp was computed from, in the same
// order; they supply the charts.
func Comparison(w io.Writer, cmp *compare.Comparison, a, b []*result.Result) error {
	if cmp == nil {
		return errors.New("html comparison: no comparison")
	}
	for _, r := range append(append([]*result.Result(nil), a...), b...) {
		if r == nil {
			return errors.New("html comparison: a run is missing")
		}
	}
	p := &page{
		Title:   "vesload comparison: " + cmp.NameA + " vs " + cmp.NameB,
		Heading: "A/B comparison: " + cmp.Title(),
		Meta:    comparisonMeta(cmp, a, b),
		Footer:  "Written by vesload from " + fmt.Sprintf("%d result documents", len(a)+len(b)) + " (" + result.Schema + ").",
	}
	p.Sections = []section{
		comparisonTable(cmp),
		{
			ID: "charts", Title: "Charts",
			Figures: append([]figure{
				spectrumOverlay(cmp, a, b).figure("Neither side recorded latency histograms."),
			}, runOverlays(cmp, a, b)...),
		},
		runsSection(cmp, a, b),
	}
	p.Sections = append(p.Sections[:1], append(gateSections(cmp), p.Sections[1:]...)...)
	return render(w, p)
}

func comparisonMeta(cmp *compare.Comparison, a, b []*result.Result) []string {
	meta := []string{cmp.Method()}
	if len(a) > 0 {
		meta = append(meta, cmp.NameA+": "+targetLine(a[0]))
	}
	if len(b) > 0 {
		meta = append(meta, cmp.NameB+": "+targetLine(b[0]))
	}
	return meta
}

func comparisonTable(cmp *compare.Comparison) section {
	t := table{Head: head(1, cmp.Header()...)}
	t.Head[len(t.Head)-1].Class = ""
	for i, cells := range cmp.Cells() {
		row := make([]cell, len(cells))
		for j, c := range cells {
			row[j] = num(c)
		}
		row[0] = key(cells[0])
		verdict := cells[len(cells)-1]
		row[len(row)-1] = cell{Text: verdict, Class: verdictClass(cmp.Rows[i], verdict)}
		t.Rows = append(t.Rows, row)
	}
	s := section{ID: "comparison", Title: "Comparison", Tables: []table{t}}
	for _, d := range cmp.Distributions {
		s.Paras = append(s.Paras, "Distributions: "+d.Summary(cmp.NameA, cmp.NameB)+".")
	}
	s.Notes = cmp.Notes
	return s
}

// verdictClass colours a significant change by whether it is better or
// worse.
func verdictClass(r compare.Row, verdict string) string {
	switch {
	case !r.Significant:
		return ""
	case strings.HasSuffix(verdict, " better"):
		return "better"
	case strings.HasSuffix(verdict, " worse"):
		return "worse"
	}
	return ""
}

// sideStyle is how one side is drawn in the overlays.
type sideStyle struct {
	name   string
	color  color.RGBA
	dashed bool
	runs   []*result.Result
	labels []string
}

// runName names run i of the side in legends: its label (file name)
// when there is one.
func (s sideStyle) runName(i int) string {
	if i < len(s.labels) && s.labels[i] != "" {
		if strings.HasPrefix(s.labels[i], s.name) {
			return s.labels[i]
		}
		return s.name + " " + s.labels[i]
	}
	return fmt.Sprintf("%s run %d", s.name, i+1)
}

func sides(cmp *compare.Comparison, a, b []*result.Result) []sideStyle {
	return []sideStyle{
		{name: cmp.NameA, color: colBlue, runs: a, labels: cmp.LabelsA},
		{name: cmp.NameB, color: colVermilion, dashed: true, runs: b, labels: cmp.LabelsB},
	}
}

// spectrumOverlay draws each side's merged latency spectrum, with each
// run's own spectrum as a thin line behind it when a side has several.
func spectrumOverlay(cmp *compare.Comparison, a, b []*result.Result) chart {
	c := chart{
		title:   "Latency percentile spectra",
		caption: "Latency from the due time at every percentile to p99.99, each side's runs merged (thick) and each run alone (thin).",
		xLabel:  "percentile", yLabel: "ms",
		spectrum: true,
	}
	var thick []series
	for _, s := range sides(cmp, a, b) {
		merged := result.NewHistogram()
		for i, r := range s.runs {
			h := runHistogram(r)
			if h == nil {
				continue
			}
			merged.Merge(h)
			if len(s.runs) > 1 {
				c.series = append(c.series, series{name: s.runName(i), color: lighter(s.color), thin: true, xy: spectrum(h)})
			}
		}
		thick = append(thick, series{name: s.name, color: s.color, dashed: s.dashed, xy: spectrum(merged)})
	}
	c.series = append(c.series, thick...) // merged lines on top
	return c
}

func runHistogram(r *result.Result) *hdrhistogram.Histogram {
	h, err := result.DecodeHistogram(r.Histograms.Latency)
	if err != nil {
		return nil
	}
	return h
}

// runOverlay draws one per-second series of every run, coloured by
// side.
func runOverlay(cmp *compare.Comparison, a, b []*result.Result, c chart, xy func([]result.Second) []point) chart {
	for _, s := range sides(cmp, a, b) {
		for i, r := range s.runs {
			if len(r.Timeline) == 0 {
				continue
			}
			c.series = append(c.series, series{name: s.runName(i), color: s.color, dashed: s.dashed, thin: len(s.runs) > 3,
				xy: xy(r.Timeline)})
		}
	}
	return c
}

// runOverlays are the per-second charts of a comparison: every run's
// p99, achieved rate and errors, coloured by side.
func runOverlays(cmp *compare.Comparison, a, b []*result.Result) []figure {
	const none = "The runs have no per-second timelines."
	p99 := runOverlay(cmp, a, b, chart{
		title:   "p99 latency per second",
		caption: "Every run's p99 of the requests due in each second, coloured by side.",
		xLabel:  "seconds", yLabel: "ms",
	}, func(tl []result.Second) []point {
		return latencyXY(tl, func(sec result.Second) float64 { return sec.P99Ms })
	})
	rate := runOverlay(cmp, a, b, chart{
		title:   "Achieved rate per second",
		caption: "Every run's requests sent in each second, coloured by side.",
		xLabel:  "seconds", yLabel: "requests/s",
	}, func(tl []result.Second) []point {
		return timelineXY(tl, func(sec result.Second) float64 { return float64(sec.Sent) })
	})
	errs := runOverlay(cmp, a, b, chart{
		title:   "Errors per second",
		caption: "Every run's failed requests in each second, all classes, coloured by side.",
		xLabel:  "seconds", yLabel: "errors/s",
	}, func(tl []result.Second) []point {
		return timelineXY(tl, func(sec result.Second) float64 { return float64(sec.Errors) })
	})
	noErrors := none
	if slices.ContainsFunc(append(slices.Clone(a), b...), func(r *result.Result) bool { return len(r.Timeline) > 0 }) {
		noErrors = "No run had errors."
	}
	if !slices.ContainsFunc(append(slices.Clone(a), b...), func(r *result.Result) bool { return r.Requests.Errors > 0 }) {
		errs.series = nil
	}
	return []figure{p99.figure(none), rate.figure(none), errs.figure(noErrors)}
}

// runsSection lists the runs behind each side in the seed-table layout.
func runsSection(cmp *compare.Comparison, a, b []*result.Result) section {
	t := table{Head: head(3, append([]string{"side", "run", "started"}, seed.Header()...)...)}
	add := func(name string, labels []string, runs []*result.Result) {
		for i, r := range runs {
			label := fmt.Sprintf("run %d", i+1)
			if i < len(labels) {
				label = labels[i]
			}
			started := ""
			if !r.Started.IsZero() {
				started = fmtTime(r.Started)
			}
			row := []cell{key(name), {Text: label, Class: "nowrap"}, {Text: started, Class: "nowrap"}}
			for _, v := range seed.Values(r) {
				row = append(row, num(v))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	add(cmp.NameA, cmp.LabelsA, a)
	add(cmp.NameB, cmp.LabelsB, b)
	return section{ID: "runs", Title: "Runs", Tables: []table{t}}
}
