package delivery

import (
	"errors"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// TimestampType says what a record's timestamp means.
type TimestampType uint8

const (
	NoTimestamp   TimestampType = iota // the source carries none (DMaaP)
	CreateTime                         // set by the producer (the collector)
	LogAppendTime                      // set by the broker when it stored the record
)

// TimestampResolution is the resolution of record timestamps: Kafka's
// are whole milliseconds, so "to the record" reads up to this much low
// against due times kept in microseconds.
const TimestampResolution = time.Millisecond

var timestampNames = [...]string{"none", "CreateTime", "LogAppendTime"}

// Record is one record read from the output topic.
type Record struct {
	Value []byte
	// Partition is the record's partition; ordering is judged per
	// partition. Sources without partitions use 0.
	Partition int32
	Timestamp time.Time
	TSType    TimestampType
	// Lag is how many records the consumer is behind the end of the topic
	// after this one, summed over partitions; -1 when unknown.
	Lag int64
}

// Config describes the run whose events are followed.
type Config struct {
	// RunID is the eventId prefix: ids are "<RunID>-<n>".
	RunID string
	// Events is how many events the schedule can send (requests × Batch):
	// the size of the bitmaps.
	Events uint64
	// Batch is how many events a request carries (at least 1); request r
	// carries events r·Batch … r·Batch+Batch−1.
	Batch int
	// Start is when the run started (timeline seconds count from it).
	Start time.Time
	// NoAnswers says the protocol never answers (HV-VES): nothing is
	// accepted, so the accepted-based counts are left at zero.
	NoAnswers bool
	// Sources is how many producers the events come from, event n from
	// source n mod Sources (HV-VES producers); 0 or 1 is one source.
	// Order is judged per source within a partition, as Kafka keys by
	// source would keep it: the producers of a run interleave freely.
	Sources uint64
	// Due returns when event n was due. It must be a pure function: it is
	// called once per delivered event. Nil when the due times are not
	// known (a consumer given no rate): events are then counted but no
	// latency is recorded.
	Due func(n uint64) time.Time
}

// Tally matches records to the run's events and keeps the figures. Add
// is called by one consumer; Accept may be called concurrently from any
// goroutine (the engine's observers).
type Tally struct {
	cfg            Config
	runID          []byte
	seen, accepted bitset

	mu                                          sync.Mutex
	delivered, dups, outOfOrder, foreign, total int64
	skewed                                      int64
	last                                        map[orderKey]uint64 // per partition and source: highest event number + 1
	e2e, consumed, second                       *hdrhistogram.Histogram
	tsTypes                                     [len(timestampNames)]int64
	sec, secCount, lag, lagMax                  int64
	timeline                                    []result.DeliverySecond
	target                                      int64
	reached                                     chan struct{}
	srcErrors                                   int64
	lastErr                                     string
}

// orderKey is what delivery order is judged within: a partition, and the
// event's source when there are several.
type orderKey struct {
	partition int32
	source    uint64
}

// NewTally prepares the bitmaps for cfg.Events events.
func NewTally(cfg Config) (*Tally, error) {
	if cfg.RunID == "" {
		return nil, errors.New("delivery: a run id is needed")
	}
	cfg.Batch = max(1, cfg.Batch)
	return &Tally{
		cfg: cfg, runID: []byte(cfg.RunID),
		seen: newBitset(cfg.Events), accepted: newBitset(cfg.Events),
		last: map[orderKey]uint64{},
		e2e:  result.NewHistogram(), consumed: result.NewHistogram(), second: result.NewHistogram(),
		sec: -1, lagMax: -1, target: -1, reached: make(chan struct{}),
	}, nil
}

// Accept marks request seq as answered 2xx: its events are expected on
// the topic. It is the per-request observer's only work and allocates
// nothing.
func (t *Tally) Accept(seq int64) {
	t.accepted.setRequest(seq, uint64(t.cfg.Batch), t.cfg.Events)
}

// Add matches one record read at now.
func (t *Tally) Add(r Record, now time.Time) {
	n, ok := parseSeq(EventID(r.Value), t.runID)
	if ok && n == transport.PreflightSeq {
		return // the preflight's event, outside the run's figures
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total++
	t.roll(now)
	if r.Lag >= 0 {
		t.lag, t.lagMax = r.Lag, max(t.lagMax, r.Lag)
	}
	if !ok || n >= t.cfg.Events {
		t.foreign++
		return
	}
	if t.seen.set(n) {
		t.dups++
		return
	}
	t.delivered++
	key := orderKey{partition: r.Partition}
	if t.cfg.Sources > 1 {
		key.source = n % t.cfg.Sources
	}
	if last, ok := t.last[key]; ok && n < last {
		t.outOfOrder++
	}
	t.last[key] = max(t.last[key], n+1)
	t.record(n, r, now)
	if t.target >= 0 && t.delivered >= t.target {
		t.reach()
	}
}

// record adds the event's end-to-end latencies.
func (t *Tally) record(n uint64, r Record, now time.Time) {
	t.tsTypes[r.TSType]++
	if t.cfg.Due == nil {
		t.secCount++
		return
	}
	due := t.cfg.Due(n)
	consumed := micros(now.Sub(due))
	_ = t.consumed.RecordValue(consumed)
	lat := consumed
	if r.TSType != NoTimestamp {
		// Kafka timestamps are whole milliseconds: only a timestamp a
		// millisecond or more before the due time means clocks apart.
		d := r.Timestamp.Sub(due)
		if d <= -time.Millisecond {
			t.skewed++
		}
		lat = micros(d)
		_ = t.e2e.RecordValue(lat)
	}
	_ = t.second.RecordValue(lat)
	t.secCount++
}

// micros clamps d into the histograms' range, in µs.
func micros(d time.Duration) int64 {
	return min(max(d.Microseconds(), 0), result.HistogramHighestUs)
}

// roll closes the timeline second before now's.
func (t *Tally) roll(now time.Time) {
	s := int64(now.Sub(t.cfg.Start) / time.Second)
	if s == t.sec {
		return
	}
	t.flushSecond()
	t.sec = s
}

func (t *Tally) flushSecond() {
	if t.sec < 0 || t.secCount == 0 && t.lag <= 0 {
		return
	}
	sum := result.Summarize(t.second)
	t.timeline = append(t.timeline, result.DeliverySecond{
		T: t.sec, Delivered: t.secCount, P50Ms: sum.P50, P99Ms: sum.P99, MaxMs: sum.Max, Lag: max(t.lag, 0),
	})
	t.second.Reset()
	t.secCount = 0
}

// SourceError records a failed read of the topic; the source retries.
func (t *Tally) SourceError(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.srcErrors++
	t.lastErr = err.Error()
}

// SetStart moves the timeline's origin to the schedule's start, once it
// is known; call it before the first record.
func (t *Tally) SetStart(start time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cfg.Start = start
}

// Expect sets how many distinct events are expected and returns a
// channel closed once that many were delivered.
func (t *Tally) Expect(events int64) <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.target = events
	if t.delivered >= events {
		t.reach()
	}
	return t.reached
}

func (t *Tally) reach() {
	select {
	case <-t.reached:
	default:
		close(t.reached)
	}
}

// Delivered returns the distinct events delivered so far.
func (t *Tally) Delivered() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.delivered
}

// StateBytes is the memory the per-event state holds: the two bitmaps.
func (t *Tally) StateBytes() int { return t.seen.bytes() + t.accepted.bytes() }

// Result returns the figures, given the events of the requests that were
// sent. Call it once the consumer has stopped.
func (t *Tally) Result(source string, expected int64, grace time.Duration) (*result.Delivery, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushSecond()
	t.sec = -1
	d := &result.Delivery{
		Source: source, TimestampType: t.timestampType(), GraceS: grace.Seconds(),
		Expected: expected, Accepted: t.accepted.count(), Delivered: t.delivered,
		Lost:               max(expected-t.delivered, 0),
		LostThoughAccepted: t.accepted.andNotCount(&t.seen),
		Duplicates:         t.dups, OutOfOrder: t.outOfOrder, Foreign: t.foreign, Records: t.total,
		ClockSkewed: t.skewed, LagMax: t.lagMax, SourceErrors: t.srcErrors, LastError: t.lastErr,
		E2E: result.Summarize(t.e2e), Consumed: result.Summarize(t.consumed),
		Timeline: append([]result.DeliverySecond(nil), t.timeline...),
	}
	if d.TimestampType != timestampNames[NoTimestamp] {
		d.TimestampResolutionMs = float64(TimestampResolution) / float64(time.Millisecond)
	}
	d.NoAnswers = t.cfg.NoAnswers
	if !t.cfg.NoAnswers {
		d.DeliveredThoughRejected = t.seen.andNotCount(&t.accepted)
	}
	var (
		enc result.HistogramEncoder // one compressor for both histograms
		err error
	)
	if d.Histograms.E2E, err = enc.Encode(t.e2e); err == nil {
		d.Histograms.Consumed, err = enc.Encode(t.consumed)
	}
	return d, err
}

// timestampType names the timestamps E2E was measured to.
func (t *Tally) timestampType() string {
	name := "none"
	for i, n := range t.tsTypes {
		if n == 0 || i == int(NoTimestamp) {
			continue
		}
		if name != "none" {
			return "mixed"
		}
		name = timestampNames[i]
	}
	return name
}
