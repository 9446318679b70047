package publish

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Mode says when the emulator answers relative to the broker's
// acknowledgement.
type Mode uint8

const (
	// AfterAck answers once the broker has acknowledged every event of
	// the request, as the DMaaP-client generation of the collector
	// (publish synchronously, then answer) does.
	AfterAck Mode = iota
	// BeforeAck answers once the events are in the producer's buffer, as
	// the Kafka generation (collector ≥ 1.12.4) does: a 202 then proves
	// nothing about delivery.
	BeforeAck
)

// Defaults of the producer model.
const (
	// DefaultBuffer is how many events may wait for the broker at once.
	DefaultBuffer = 4096
	// DefaultMaxBlock is how long a request waits for buffer room before
	// its publish fails: Kafka's producer default for max.block.ms.
	DefaultMaxBlock = 60 * time.Second
)

// ErrBufferFull is the publish failure of a request that found the
// producer's buffer full for longer than MaxBlock.
var ErrBufferFull = errors.New("producer buffer full for max block time")

// errClosed is returned when the emulator closes during a wait.
var errClosed = errors.New("emulator closed")

// Options configure a Publisher.
type Options struct {
	// Kafka are the client options (seed brokers, TLS, SASL); see
	// internal/kafkaconf.
	Kafka []kgo.Opt
	// Mode is AfterAck (the zero value) or BeforeAck.
	Mode Mode
	// Drop is the fraction (0..1) of routed events that are silently not
	// published, as a broken publisher would lose them after answering.
	Drop float64
	// Delay holds every event this long before it is produced.
	Delay time.Duration
	// Buffer is how many events may be buffered or in flight to the
	// broker (default DefaultBuffer); a request that finds it full waits
	// up to MaxBlock (default DefaultMaxBlock), then fails.
	Buffer   int
	MaxBlock time.Duration
	// Seed makes the drop choices reproducible; zero picks a random one,
	// which Publisher.Seed reports so that a run can be repeated.
	Seed uint64
}

// Stats counts what the publisher did with the events it was given.
type Stats struct {
	Published int64 `json:"published"` // acknowledged by the broker
	Dropped   int64 `json:"dropped"`   // lost on purpose (Drop)
	Unrouted  int64 `json:"unrouted"`  // no output topic for the domain
	Failed    int64 `json:"failed"`    // the broker refused or timed out
	Stalled   int64 `json:"stalled"`   // requests refused after MaxBlock
	Buffered  int64 `json:"buffered"`  // waiting for the broker now
}

// Publisher produces the events of accepted requests to Kafka. It is safe
// for concurrent use; Publish fits testserver.Options.Publish.
type Publisher struct {
	opts    Options
	client  *kgo.Client
	slots   chan struct{}
	pending sync.WaitGroup
	draws   atomic.Uint64

	// held are the events waiting out Delay before they are produced;
	// Close counts those still waiting as failed.
	heldMu sync.Mutex
	held   map[*time.Timer]struct{}

	published, dropped, unrouted, failed, stalled atomic.Int64

	closeOnce sync.Once
	closeErr  error
}

// New connects a producer. It does not contact the broker yet: the
// first publish does.
func New(o Options) (*Publisher, error) {
	if !(o.Drop >= 0 && o.Drop <= 1) {
		return nil, fmt.Errorf("publish drop %v: want a fraction between 0 and 1", o.Drop)
	}
	if o.Delay < 0 || o.MaxBlock < 0 || o.Buffer < 0 {
		return nil, errors.New("publish delay, max block and buffer must not be negative")
	}
	if o.Buffer == 0 {
		o.Buffer = DefaultBuffer
	}
	if o.MaxBlock == 0 {
		o.MaxBlock = DefaultMaxBlock
	}
	for o.Seed == 0 {
		o.Seed = rand.Uint64()
	}
	opts := append([]kgo.Opt{
		kgo.AllowAutoTopicCreation(),
		kgo.MaxBufferedRecords(o.Buffer + 1),
		kgo.ProducerLinger(0),
		kgo.RecordDeliveryTimeout(30 * time.Second),
	}, o.Kafka...)
	client, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("kafka producer: %w", err)
	}
	return &Publisher{opts: o, client: client, slots: make(chan struct{}, o.Buffer)}, nil
}

// Publish publishes the events of one accepted request body (batch: an
// eventList). In AfterAck mode it returns once the broker acknowledged
// them all; in BeforeAck mode once they are buffered. A non-nil error is
// the collector's publish failure.
func (p *Publisher) Publish(body []byte, batch bool, quit <-chan struct{}) error {
	evs, err := splitEvents(body, batch)
	if err != nil {
		return err
	}
	if p.opts.Mode == AfterAck && p.opts.Delay > 0 && !sleep(p.opts.Delay, quit) {
		return errClosed
	}
	acks := newAcks(len(evs))
	for _, ev := range evs {
		switch {
		case ev.topic == "":
			p.unrouted.Add(1)
			continue
		case p.drop():
			p.dropped.Add(1)
			continue
		}
		if err := p.reserve(quit); err != nil {
			p.stalled.Add(1)
			return err
		}
		rec := &kgo.Record{Topic: ev.topic, Value: ev.value}
		if p.opts.Mode == BeforeAck {
			p.later(rec)
			continue
		}
		acks.add()
		p.send(rec, acks.done)
	}
	return acks.wait(quit)
}

// PublishRecord publishes one record as it is (HV-VES routes the
// VesEvent protobuf unchanged) to topic, with the same drop, delay,
// buffer and acknowledgement model as Publish. value is copied.
func (p *Publisher) PublishRecord(topic string, value []byte, quit <-chan struct{}) error {
	if p.drop() {
		p.dropped.Add(1)
		return nil
	}
	if p.opts.Mode == AfterAck && p.opts.Delay > 0 && !sleep(p.opts.Delay, quit) {
		return errClosed
	}
	if err := p.reserve(quit); err != nil {
		p.stalled.Add(1)
		return err
	}
	rec := &kgo.Record{Topic: topic, Value: append([]byte(nil), value...)}
	if p.opts.Mode == BeforeAck {
		p.later(rec)
		return nil
	}
	acks := newAcks(1)
	acks.add()
	p.send(rec, acks.done)
	return acks.wait(quit)
}

// Seed is the seed of the drop choices: the one given, or the random one
// picked for a zero seed.
func (p *Publisher) Seed() uint64 { return p.opts.Seed }

// drop decides, reproducibly from the seed, whether the next routed
// event is lost.
func (p *Publisher) drop() bool {
	if p.opts.Drop == 0 {
		return false
	}
	x := splitmix(p.opts.Seed + p.draws.Add(1))
	return float64(x>>11)/(1<<53) < p.opts.Drop
}

// splitmix is SplitMix64's output function: consecutive inputs give
// independent-looking uniform outputs.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// reserve takes a buffer slot, waiting up to MaxBlock for one.
func (p *Publisher) reserve(quit <-chan struct{}) error {
	select {
	case p.slots <- struct{}{}:
		p.pending.Add(1)
		return nil
	default:
	}
	t := time.NewTimer(p.opts.MaxBlock)
	defer t.Stop()
	select {
	case p.slots <- struct{}{}:
		p.pending.Add(1)
		return nil
	case <-t.C:
		return ErrBufferFull
	case <-quit:
		return errClosed
	}
}

// later produces rec after Delay without holding up the answer.
func (p *Publisher) later(rec *kgo.Record) {
	if p.opts.Delay <= 0 {
		p.send(rec, nil)
		return
	}
	p.heldMu.Lock()
	defer p.heldMu.Unlock()
	var t *time.Timer
	t = time.AfterFunc(p.opts.Delay, func() {
		p.heldMu.Lock()
		delete(p.held, t)
		p.heldMu.Unlock()
		p.send(rec, nil)
	})
	if p.held == nil {
		p.held = map[*time.Timer]struct{}{}
	}
	p.held[t] = struct{}{}
}

// release fails every event still waiting out Delay.
func (p *Publisher) release() {
	p.heldMu.Lock()
	defer p.heldMu.Unlock()
	for t := range p.held {
		if t.Stop() {
			p.failed.Add(1)
			<-p.slots
			p.pending.Done()
		}
		delete(p.held, t)
	}
}

// send produces rec; its slot is freed when the broker answers.
func (p *Publisher) send(rec *kgo.Record, done func(error)) {
	p.client.Produce(context.Background(), rec, func(_ *kgo.Record, err error) {
		if err != nil {
			p.failed.Add(1)
		} else {
			p.published.Add(1)
		}
		<-p.slots
		p.pending.Done()
		if done != nil {
			done(err)
		}
	})
}

// Stats returns a snapshot of the counters.
func (p *Publisher) Stats() Stats {
	return Stats{
		Published: p.published.Load(), Dropped: p.dropped.Load(), Unrouted: p.unrouted.Load(),
		Failed: p.failed.Load(), Stalled: p.stalled.Load(), Buffered: int64(len(p.slots)),
	}
}

// Close waits until ctx ends for buffered events to reach the broker,
// then closes the producer; events still buffered then are lost and
// counted as failed.
func (p *Publisher) Close(ctx context.Context) error {
	p.closeOnce.Do(func() { p.closeErr = p.close(ctx) })
	return p.closeErr
}

func (p *Publisher) close(ctx context.Context) error {
	drained := make(chan struct{})
	go func() { p.pending.Wait(); close(drained) }()
	var err error
	select {
	case <-drained:
	case <-ctx.Done():
		err = fmt.Errorf("kafka producer: %d events still buffered at close", len(p.slots))
	}
	p.release()
	p.client.Close()
	<-drained // a closed client fails what it still holds, so every slot comes back
	return err
}

// acks waits for the broker's answers to one request's events.
type acks struct {
	n   int
	res chan error
}

func newAcks(max int) *acks { return &acks{res: make(chan error, max)} }

// add counts one more event to wait for.
func (a *acks) add() { a.n++ }

// done records one answer; it never blocks (res holds one per event).
func (a *acks) done(err error) { a.res <- err }

// wait returns the first failure among the answers, once all are in.
func (a *acks) wait(quit <-chan struct{}) error {
	var first error
	for ; a.n > 0; a.n-- {
		select {
		case err := <-a.res:
			if err != nil && first == nil {
				first = fmt.Errorf("kafka publish: %w", err)
			}
		case <-quit:
			return errClosed
		}
	}
	return first
}

// sleep waits d, or returns false when quit closes first.
func sleep(d time.Duration, quit <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-quit:
		return false
	}
}

// Delay returns the publish delay, so that a caller can size its wait
// for buffered events at close.
func (p *Publisher) Delay() time.Duration { return p.opts.Delay }
