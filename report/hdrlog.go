package report

import (
	"fmt"
	"io"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// HdrLog writes the standard HdrHistogram interval log (format 1.3): one
// compressed histogram per interval, which HdrHistogram's
// HistogramLogProcessor and its plotters read. vesload records in
// microseconds, so those tools want -outputValueUnitRatio 1000 to print
// milliseconds; the log says so in a comment.
type HdrLog struct {
	w     *hdrhistogram.HistogramLogWriter
	tag   string
	count int
}

// NewHdrLog writes the log's header for a run that started at start.
// Tag labels every interval line (for example "latency").
func NewHdrLog(w io.Writer, start time.Time, tag string) (*HdrLog, error) {
	lw := hdrhistogram.NewHistogramLogWriter(w)
	ms := start.UnixMilli()
	lw.SetBaseTime(ms)
	steps := []func() error{
		lw.OutputLogFormatVersion,
		func() error {
			return lw.OutputComment("vesload: values in microseconds (use -outputValueUnitRatio 1000 for ms)")
		},
		func() error { return lw.OutputStartTime(ms) },
		func() error { return lw.OutputBaseTime(ms) },
		lw.OutputLegend,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, fmt.Errorf("write HdrHistogram log header: %w", err)
		}
	}
	return &HdrLog{w: lw, tag: tag}, nil
}

// Interval appends the histogram of one interval. It stamps h with the
// interval's times and tag; the caller may reset h afterwards.
func (l *HdrLog) Interval(start, end time.Time, h *hdrhistogram.Histogram) error {
	h.SetStartTimeMs(start.UnixMilli())
	h.SetEndTimeMs(end.UnixMilli())
	h.SetTag(l.tag)
	if err := l.w.OutputIntervalHistogram(h); err != nil {
		return fmt.Errorf("write HdrHistogram interval: %w", err)
	}
	l.count++
	return nil
}

// Intervals is how many intervals were written.
func (l *HdrLog) Intervals() int { return l.count }
