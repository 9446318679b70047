package observe

import (
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output/hdrlog"
	"github.com/vesload/vesload/loadgen/output/jtl"
	"github.com/vesload/vesload/report/result"
)

// JTL writes every request as a JMeter JTL row, off the request path:
// Request queues the event (no allocation, never a wait) and a goroutine
// of its own formats and writes the rows. The first write error stops
// the stream; Close reports it with the rows written.
type JTL struct {
	engine.NopObserver
	q *queue[engine.RequestEvent]
}

// NewJTL streams to w, labelling every row with label; name names the
// output in Close's report (e.g. "--jtl r.jtl").
func NewJTL(w *jtl.Writer, label, name string) *JTL {
	return NewJTLLabels(w, func(int64) string { return label }, name)
}

// NewJTLLabels is NewJTL with a label for each request, label(seq), such
// as the HV-VES producer that sent it. It is called on the writer's
// goroutine and must not allocate.
func NewJTLLabels(w *jtl.Writer, label func(seq int64) string, name string) *JTL {
	write := func(ev *engine.RequestEvent) error {
		return w.Write(jtl.Sample{
			Start: ev.Due, Elapsed: ev.Latency, Service: ev.Service, Label: label(ev.Seq),
			Code: ev.Code, Outcome: ev.Outcome, BytesRecv: ev.BytesRecv, BytesSent: ev.BytesSent,
			InFlight: ev.InFlight, Connect: ev.Connect, FirstByte: ev.FirstByte,
		})
	}
	return &JTL{q: newQueue(name, QueueSize, write, w.Flush)}
}

// OutputName implements engine.OutputNamer.
func (j *JTL) OutputName() (name string, live bool) { return j.q.name, false }

// ReadsTicks implements engine.TickReader: the JTL writes requests, whose
// losses its own queue counts, and reads no snapshot.
func (j *JTL) ReadsTicks() (updates, seconds bool) { return false, false }

// Request implements engine.Observer.
func (j *JTL) Request(ev *engine.RequestEvent) { j.q.put(ev) }

// Close writes out the queued rows once the run is over and reports what
// reached the file.
func (j *JTL) Close() Report { return j.q.close() }

// HdrLog writes each second of the timeline's latency histogram as one
// interval of an HdrHistogram log, off the engine's goroutines: Timeline
// encodes the second's histogram as the engine built it (the engine
// reuses it once every output has read it) into the interval's line,
// which a queue hands to a goroutine of its own that writes it out. It
// builds no histogram.
type HdrLog struct {
	engine.NopObserver
	log *hdrlog.Log
	q   *queue[interval]
	// start is set by Begin, before the first second comes to Timeline
	// (the outlet's queue orders it).
	start time.Time
}

// NewHdrLog streams to log; flush writes out what log's writer buffers,
// and name names the output in Close's report.
func NewHdrLog(log *hdrlog.Log, flush func() error, name string) *HdrLog {
	write := func(iv *interval) error {
		if iv.err != nil {
			return iv.err
		}
		return log.WriteInterval(iv.line)
	}
	return &HdrLog{log: log, q: newQueue(name, 64, write, flush)}
}

// OutputName implements engine.OutputNamer.
func (h *HdrLog) OutputName() (name string, live bool) { return h.q.name, false }

// ReadsTicks implements engine.TickReader: the log reads the timeline's
// seconds, never the live updates.
func (h *HdrLog) ReadsTicks() (updates, seconds bool) { return false, true }

// Begin implements engine.Observer.
func (h *HdrLog) Begin(start time.Time) { h.start = start }

// Timeline implements engine.Observer: it encodes the second's own
// histogram, on the observer's goroutine, and queues the line.
func (h *HdrLog) Timeline(s result.Second, t *result.Tally) {
	if t.Latency == nil || h.q.failed.Load() {
		return
	}
	from := h.start.Add(time.Duration(s.T) * time.Second)
	line, err := h.log.AppendInterval(nil, from, from.Add(time.Second), t.Latency)
	h.q.put(&interval{line: line, err: err})
}

// interval is one second's line of the log, or why it could not be
// encoded (which stops the log on the writer's goroutine).
type interval struct {
	line []byte
	err  error
}

// Close writes out the queued intervals once the run is over and reports
// what reached the file.
func (h *HdrLog) Close() Report { return h.q.close() }
