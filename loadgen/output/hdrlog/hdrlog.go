package hdrlog

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// Log writes the standard HdrHistogram interval log (format 1.3): one
// compressed histogram per interval, which HdrHistogram's
// HistogramLogProcessor and its plotters read. vesload records in
// microseconds, so those tools want -outputValueUnitRatio 1000 to print
// milliseconds; the log says so in a comment.
//
// The header comes from the library's log writer; the interval lines are
// written here, in the same text, with one result.HistogramEncoder for the
// whole log: the library's writer would build a fresh compressor every
// second.
type Log struct {
	w     io.Writer
	base  int64 // ms since the epoch that interval times count from
	tag   string
	enc   result.HistogramEncoder
	line  []byte
	count int
}

// New writes the log's header for a run that started at start.
// Tag labels every interval line (for example "latency"); the format has
// no room in it for commas, spaces or line breaks.
func New(w io.Writer, start time.Time, tag string) (*Log, error) {
	if strings.ContainsAny(tag, ", \r\n") {
		return nil, fmt.Errorf("HdrHistogram log tag %q: no commas, spaces or line breaks", tag)
	}
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
	return &Log{w: w, base: ms, tag: tag}, nil
}

// hdrLogMaxRatio scales an interval's maximum in the log line. The
// library's writer divides by its default, the ms:ns ratio, whatever the
// unit; the log keeps that so that it reads as it always has.
const hdrLogMaxRatio = hdrhistogram.MsToNsRatio

// Interval appends the histogram of one interval; h is only read, so the
// caller may reset it afterwards.
func (l *Log) Interval(start, end time.Time, h *hdrhistogram.Histogram) error {
	b, err := l.AppendInterval(l.line[:0], start, end, h)
	if err != nil {
		return err
	}
	l.line = b
	return l.WriteInterval(b)
}

// AppendInterval appends the log line of one interval's histogram to b
// and writes nothing, so that a histogram lent for a moment (a second of
// the timeline) is encoded where it is lent and its line written on
// another goroutine (WriteInterval). Calls must not overlap one another:
// they share the log's encoder.
func (l *Log) AppendInterval(b []byte, start, end time.Time, h *hdrhistogram.Histogram) ([]byte, error) {
	// "[Tag=TAG,]StartTimestamp,Interval_Length,Interval_Max,Interval_Compressed_Histogram"
	// with the times in seconds from the base time, as the library writes it.
	if l.tag != "" {
		b = append(append(append(b, "Tag="...), l.tag...), ',')
	}
	startS := float64(start.UnixMilli()-l.base) / 1000
	endS := float64(end.UnixMilli()-l.base) / 1000
	b = strconv.AppendFloat(b, startS, 'f', 6, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, endS-startS, 'f', 6, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, float64(h.Max())/hdrLogMaxRatio, 'f', 6, 64)
	b = append(b, ',')
	b, err := l.enc.AppendEncode(b, h)
	if err != nil {
		return b, fmt.Errorf("write HdrHistogram interval: %w", err)
	}
	return append(b, '\n'), nil
}

// WriteInterval writes one line made by AppendInterval.
func (l *Log) WriteInterval(line []byte) error {
	if _, err := l.w.Write(line); err != nil {
		return fmt.Errorf("write HdrHistogram interval: %w", err)
	}
	l.count++
	return nil
}

// Intervals is how many intervals were written.
func (l *Log) Intervals() int { return l.count }
