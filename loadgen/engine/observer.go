package engine

import (
	"time"

	"github.com/vesload/vesload/report/result"
)

// Observer watches a run without the engine knowing about terminals,
// files, Prometheus or Kafka (docs/ARCHITECTURE.md, "Observers"). Nothing
// an observer does may slow the run, so no observer runs under the
// engine's lock:
//
//   - Begin is called once, on the engine's goroutine, before the clock's
//     first request; it must not wait.
//   - Request is called on the goroutine that recorded the request, after
//     the recorder's lock is released, concurrently from every worker: it
//     must only hand the event to a bounded queue of its own (observe's
//     JTL does) or count it in memory, never wait for I/O, never
//     allocate, never keep ev.
//   - Second, Timeline and Checkpoint are called on a goroutine of the
//     observer's own (an outlet), from a bounded queue of the engine's
//     once-a-second snapshots, in order. An observer that falls behind
//     skips snapshots; the engine counts what it skipped and the result
//     names it (result.OutputLoss), so a slow or stuck output loses only
//     itself. Name an output with OutputNamer.
//
// Embed NopObserver to implement only what you need.
type Observer interface {
	// Begin sees the moment the run's clock starts, before any request:
	// second T of the timeline is [start+T s, start+T+1 s).
	Begin(start time.Time)
	// Request sees every finished request, pool_exhausted ones included.
	// It is on the per-request path: it must not allocate, and must not
	// keep ev, which is reused.
	Request(ev *RequestEvent)
	// Second sees the live figures once per second of wall clock. They
	// are provisional: the timeline's final figures come to Timeline.
	// p is shared by every observer: read it, do not change it.
	Second(p *Progress)
	// Timeline sees each second of the timeline, in order, once every
	// request due in it has an outcome, with the Tally of the requests due
	// in it (latency, service time in µs), built once by the recorder and
	// shared by every observer: read it or merge it, never change it, and
	// do not keep it: once every observer is done with it, it is reused.
	Timeline(s result.Second, t *result.Tally)
	// Checkpoint sees a snapshot of the result every
	// Config.CheckpointEvery, marked interrupted: a copy of its own, whose
	// top-level fields it may complete. A newer snapshot replaces one the
	// observer has not taken yet.
	Checkpoint(r *result.Result)
}

// OutputNamer is an Observer that names itself in the result when it loses
// something (result.OutputLoss): Name as the user asked for it, in their
// flags ("--jtl r.jtl"), and Live for a live view, whose skipped updates
// leave every record of the run complete. An observer without a name is
// one of the run's own, which the user did not ask for: it is named
// unnamedObserver and counts as live, so that it never decides a verdict
// nor puts a Go type before a reader.
type OutputNamer interface {
	OutputName() (name string, live bool)
}

// unnamedObserver names an observer that gives no name of its own.
const unnamedObserver = "an internal observer of the run"

// TickReader is an Observer that says which parts of the once-a-second
// snapshots it reads: the live updates (Second) and the timeline's final
// seconds (Timeline). What its outlet skips of a part it does not read is
// no loss and is not counted, so that an observer of checkpoints or of
// requests alone (the checkpointer, the delivery follower) is not named
// as missing part of the run when the machine stalled and its queue of
// snapshots, which it never reads, overflowed. An observer that does not
// implement it reads both.
type TickReader interface {
	ReadsTicks() (updates, seconds bool)
}

// OutcomeSplitter is an Observer that reads, in Timeline, a second's
// split by outcome: the Tally's OKLatency, ErrorLatency and Failures
// (InfluxDB's ok, ko and error rows). The timeline keeps the split only
// when an observer asks for it, as it doubles a second's histograms. It
// costs the recorder's lock nothing: such a second counts each latency
// once, into its side, and each failure once, by class and messageId
// (result.Tally.AddSplit); the ticker joins the whole after the lock.
type OutcomeSplitter interface {
	Observer
	SplitsOutcomes() bool
}

// splitsOutcomes reports whether an observer of os reads the split.
func splitsOutcomes(os []Observer) bool {
	for _, o := range os {
		if s, ok := o.(OutcomeSplitter); ok && s.SplitsOutcomes() {
			return true
		}
	}
	return false
}

// NopObserver ignores every event; observers embed it and override the
// methods they need.
type NopObserver struct{}

// Begin implements Observer.
func (NopObserver) Begin(time.Time) {}

// Request implements Observer.
func (NopObserver) Request(*RequestEvent) {}

// Second implements Observer.
func (NopObserver) Second(*Progress) {}

// Timeline implements Observer.
func (NopObserver) Timeline(result.Second, *result.Tally) {}

// Checkpoint implements Observer.
func (NopObserver) Checkpoint(*result.Result) {}

var _ Observer = NopObserver{}

// RequestEvent is what happened to one request.
type RequestEvent struct {
	// Seq is the request's number in the run (0-based), the one its body
	// was rendered with.
	Seq     int64
	Due     time.Time
	Latency time.Duration // from the due time
	Service time.Duration // from the hand-over to a connection; 0 when not sent
	// Outcome is "ok" or the error class (http_503, timeout, pool_exhausted, …).
	Outcome   string
	Code      int // HTTP status, 0 when there was none
	BytesSent int64
	BytesRecv int64
	MessageID string // of a VES error body
	// InFlight is how many requests were in flight when this one was
	// sent, itself included (0 when it was not sent): the JTL's
	// grpThreads/allThreads, from which JMeter draws its active-threads
	// chart.
	InFlight int64
	// Connect is how long opening the request's connection took when the
	// request opened one (TLS included), 0 on a reused connection: the
	// JTL's Connect.
	Connect time.Duration
	// FirstByte is the time from the hand-over to the first byte of the
	// answer, 0 when none arrived: the JTL's Latency.
	FirstByte time.Duration
}

// Progress is the live view of a run, once a second.
type Progress struct {
	Elapsed       time.Duration
	Total         time.Duration
	Scheduled     int64
	Sent          int64
	OK            int64
	Errors        int64
	PoolExhausted int64
	// NotYetDue counts the requests of the schedule still to come (the
	// run going on); NotSent those a stop cut off, once the schedule
	// stopped early. A closed model has neither.
	NotYetDue, NotSent int64
	// Disconnected counts the HV-VES messages due while their producer's
	// connection was down (never sent, as pool_exhausted).
	Disconnected int64
	InFlight     int64
	// BytesSent is the bytes on the wire of the requests finished so far,
	// from which a data rate (MB/s) is read.
	BytesSent int64
	// RPS is the rate sent during the last second.
	RPS float64
	// TargetRPS is the schedule's own rate now (of a closed model, the
	// requests due in the last second).
	TargetRPS float64
	// P50 and P99 are the latencies of the requests finished in the last
	// LiveWindow seconds: a stall stays visible for that long.
	P50, P99 time.Duration
	// LagMax is the largest dispatch lag during the last second; LagP50
	// and LagP99 summarise the last whole second of dispatches.
	LagMax, LagP50, LagP99 time.Duration
	// GeneratorCPU is vesload's own CPU use in the last second, 100 = one core.
	GeneratorCPU float64
	// Target and Generator are the latest samples, nil when not sampled.
	Target    *Reading
	Generator *Reading
}

// observers fans events out to a list of observers in order.
type observers []Observer

func (os observers) begin(start time.Time) {
	for _, o := range os {
		o.Begin(start)
	}
}

func (os observers) request(ev *RequestEvent) {
	for _, o := range os {
		o.Request(ev)
	}
}
