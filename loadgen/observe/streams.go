package observe

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
)

// JTL writes every request as a JMeter JTL row, off the request path:
// Request queues the event (no allocation, never a wait) and a goroutine
// of its own formats and writes the rows. The first write error stops
// the stream; Close reports it with the rows written.
type JTL struct {
	loadgen.NopObserver
	q *queue[loadgen.RequestEvent]
}

// NewJTL streams to w, labelling every row with label; name names the
// output in Close's report (e.g. "--jtl r.jtl").
func NewJTL(w *report.JTLWriter, label, name string) *JTL {
	return NewJTLLabels(w, func(int64) string { return label }, name)
}

// NewJTLLabels is NewJTL with a label for each request, label(seq), such
// as the HV-VES producer that sent it. It is called on the writer's
// goroutine and must not allocate.
func NewJTLLabels(w *report.JTLWriter, label func(seq int64) string, name string) *JTL {
	write := func(ev *loadgen.RequestEvent) error {
		return w.Write(report.JTLSample{
			Start: ev.Due, Elapsed: ev.Latency, Service: ev.Service, Label: label(ev.Seq),
			Code: ev.Code, Outcome: ev.Outcome, BytesRecv: ev.BytesRecv, BytesSent: ev.BytesSent,
			InFlight: ev.InFlight, Connect: ev.Connect, FirstByte: ev.FirstByte,
		})
	}
	return &JTL{q: newQueue(name, QueueSize, write, w.Flush)}
}

// OutputName implements loadgen.OutputNamer.
func (j *JTL) OutputName() (name string, live bool) { return j.q.name, false }

// Request implements loadgen.Observer.
func (j *JTL) Request(ev *loadgen.RequestEvent) { j.q.put(ev) }

// Close writes out the queued rows once the run is over and reports what
// reached the file.
func (j *JTL) Close() Report { return j.q.close() }

// interval is one second of the timeline's latency, copied for the
// HdrHistogram log's writer.
type interval struct {
	t int64
	h *hdrhistogram.Histogram
}

// HdrLog writes each second of the timeline's latency histogram as one
// interval of an HdrHistogram log, off the engine's goroutines: Timeline
// copies the second's histogram as the engine built it (the engine reuses
// it once every output has read it) into a queue that a goroutine of its
// own writes out.
type HdrLog struct {
	loadgen.NopObserver
	q *queue[interval]
	// start is set by Begin, before the first interval is queued; the
	// queue orders it before the writer's reads.
	start time.Time
}

// NewHdrLog streams to log; flush writes out what log's writer buffers,
// and name names the output in Close's report.
func NewHdrLog(log *report.HdrLog, flush func() error, name string) *HdrLog {
	h := &HdrLog{}
	write := func(iv *interval) error {
		from := h.start.Add(time.Duration(iv.t) * time.Second)
		return log.Interval(from, from.Add(time.Second), iv.h)
	}
	h.q = newQueue(name, 64, write, flush)
	return h
}

// OutputName implements loadgen.OutputNamer.
func (h *HdrLog) OutputName() (name string, live bool) { return h.q.name, false }

// Begin implements loadgen.Observer.
func (h *HdrLog) Begin(start time.Time) { h.start = start }

// Timeline implements loadgen.Observer.
func (h *HdrLog) Timeline(s result.Second, t *result.Tally) {
	if t.Latency == nil || h.q.failed.Load() {
		return
	}
	c := result.NewHistogram()
	c.Merge(t.Latency)
	h.q.put(&interval{t: s.T, h: c})
}

// Close writes out the queued intervals once the run is over and reports
// what reached the file.
func (h *HdrLog) Close() Report { return h.q.close() }
