package hv

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/loadgen/transport/hv/wtp"
	"github.com/vesload/vesload/report/result"
)

// Redial back-off after a failed connection attempt: messages falling
// due meanwhile are disconnected without a dial of their own.
const (
	minRedial = 50 * time.Millisecond
	maxRedial = time.Second
)

// Transport sends HV-VES frames behind the engine's transport seam
// (docs/ARCHITECTURE.md, "Transport"), so that an HV-VES run has the
// engine's schedule, timeline, observers, checkpoints and live metrics as
// a REST run has them. A producer is a connection; request n is message
// n / Producers of producer n mod Producers, so the engine's constant rate
// of Producers / Interval messages a second is exactly the producers'
// phase-spread schedule (Config.Due), and the eventIds, sequences and
// sourceNames are those of the producers. Latency runs from the due time
// to the end of the write, service time is the time blocked in the write.
//
// Writes to one connection are serialised by its lock, so the engine's
// workers queue on a slow producer: back-pressure is latency, not
// pool_exhausted (EngineConfig sizes the pool and the pool wait for it).
//
// A message due while its producer's connection is down is an error of
// class disconnected, never sent: the connection dropped (a write
// failed) or could not be re-made. Connections are re-made on the next
// message after a drop, with a back-off after a failed dial; every message
// due before the new connection was up is disconnected.
//
// It contributes the result's hv section (AddSection): per-producer
// counts, connect and handshake times, reconnects, causes of drops and
// dial errors, data rates.
type Transport struct {
	cfg    Config
	mine   []int           // the run-wide numbers of this generator's producers
	conns  []*producerConn // by run-wide producer number; nil for other shards'
	closed atomic.Bool

	// logFailure, when set (-v), is given the first failure of each
	// error class, once.
	logFailure func(string)
	logged     transport.FirstFailures

	// wrote counts the bytes written in each second of the run, by the
	// time the write ended: the data rate the collector saw, whose peak
	// the engine's due-second timeline cannot show (it holds every
	// message in its due second, so its seconds never exceed the
	// schedule's rate).
	wrote      writtenSeconds
	mu         sync.Mutex // guards what follows: rare events (dials, drops)
	connect    *hdrhistogram.Histogram
	handshake  *hdrhistogram.Histogram
	dialErrors map[string]int64
	drops      map[string]int64
}

// producerConn is one producer: its connection, its encoder and its
// counts. The engine's workers may reach one producer at once when it is
// behind schedule: mu serialises its dials and writes, and turn makes
// them take the producer's messages in their order, as a real producer
// writes them (a mutex alone lets a later message overtake an earlier
// one that waits for it).
type producerConn struct {
	mu       sync.Mutex
	next     *sync.Cond // signalled when turn moves on, or at Close
	turn     uint64     // the producer's next message to write
	c        *conn
	up       time.Time     // when c was made: messages due before it were due while it was down
	nextDial time.Time     // no dial before this after a failed one
	redial   time.Duration // the next back-off
	enc      *wtp.Encoder
	live     atomic.Pointer[conn] // c, for Close to reach without mu
	// queued counts the workers holding a due message of this producer
	// that have yet to take their turn: while one waits, the write in
	// progress is told that more follows at once.
	queued atomic.Int32

	// onConn counts the messages written on the connection now up, since
	// it was made (the last point the producer knows it worked: HV-VES
	// never answers); under mu.
	onConn int64
	// intoBroken counts the messages written into connections that then
	// broke: a later write failed, so each of them may or may not have
	// reached the collector (the kernel took them; nothing says whether
	// the collector read them before the connection went).
	intoBroken atomic.Int64

	written, failed, disconnected, bytes, reconnects, connects atomic.Int64
}

var (
	_ transport.Transport  = (*Transport)(nil)
	_ engine.ResultSection = (*Transport)(nil)
)

// NewTransport checks cfg and prepares one encoder for each producer of
// this generator (all, or a shard's, see Config.Shard).
func NewTransport(cfg Config) (*Transport, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	t := &Transport{cfg: cfg, mine: cfg.mine(), conns: make([]*producerConn, cfg.Producers),
		wrote:   newWrittenSeconds(cfg.Span() + cfg.Interval),
		connect: result.NewHistogram(), handshake: result.NewHistogram(),
		dialErrors: map[string]int64{}, drops: map[string]int64{}}
	for _, p := range t.mine {
		enc, err := wtp.NewEncoder(cfg.Source(p), cfg.Size)
		if err != nil {
			return nil, fmt.Errorf("--size: %w", err)
		}
		pc := &producerConn{enc: enc, redial: minRedial}
		pc.next = sync.NewCond(&pc.mu)
		t.conns[p] = pc
	}
	return t, nil
}

// Preflight makes every producer's connection, in parallel, and reads
// each for ProbeWait: all must succeed, since an unreachable collector, a
// refused handshake or a listener that answers (HV-VES never does) means
// nothing written would be received. The connections are kept for the
// run.
func (t *Transport) Preflight(ctx context.Context) error {
	errs := make([]error, len(t.mine))
	var wg sync.WaitGroup
	for i, p := range t.mine {
		pc := t.conns[p]
		wg.Go(func() {
			c, err := dial(ctx, &t.cfg)
			if err == nil {
				if err = probe(c, t.cfg.ProbeWait); err != nil {
					c.Close()
				}
			}
			if err != nil {
				errs[i] = err
				return
			}
			pc.mu.Lock()
			t.connected(pc, c)
			pc.mu.Unlock()
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.release()
			if why := tlsconf.Explain(err); why != "" {
				return fmt.Errorf("connect to %s (producer %d): %s (%w)", t.cfg.Addr, t.mine[i], why, err)
			}
			return fmt.Errorf("connect to %s (producer %d): %w", t.cfg.Addr, t.mine[i], err)
		}
	}
	return nil
}

// Warm opens the connections Preflight did not (a run without preflight).
func (t *Transport) Warm(int) {
	var wg sync.WaitGroup
	for _, p := range t.mine {
		pc := t.conns[p]
		wg.Go(func() {
			pc.mu.Lock()
			defer pc.mu.Unlock()
			if pc.c == nil && !t.closed.Load() {
				if c, err := dial(context.Background(), &t.cfg); err == nil {
					t.connected(pc, c) // a failure shows as disconnected messages
				}
			}
		})
	}
	wg.Wait()
}

// NewSender returns a sender; senders share the producers' connections.
func (t *Transport) NewSender() (transport.Sender, func()) {
	return sender{t}, func() {}
}

// Close closes every connection, without waiting for a write in
// progress (which then fails); nothing is dialled after it.
func (t *Transport) Close() {
	t.closed.Store(true)
	t.closeConns()
	for _, p := range t.mine { // a sender waiting for its turn stops waiting
		pc := t.conns[p]
		pc.mu.Lock()
		pc.next.Broadcast()
		pc.mu.Unlock()
	}
}

// release closes the connections Preflight made, before any sender
// runs, so that the transport can still be used.
func (t *Transport) release() {
	for _, p := range t.mine {
		pc := t.conns[p]
		pc.mu.Lock()
		if pc.c != nil {
			pc.c.Close()
			pc.c = nil
			pc.live.Store(nil)
		}
		pc.mu.Unlock()
	}
}

// closeConns closes the connections open now; the caller holds no
// producer's lock.
func (t *Transport) closeConns() {
	for _, p := range t.mine {
		if c := t.conns[p].live.Swap(nil); c != nil {
			c.Close()
		}
	}
}

// LogFailures has the first failed write or dial of each error class
// described to log (-v); call it before the run.
func (t *Transport) LogFailures(log func(string)) { t.logFailure = log }

// failure logs err, the first of its class, for producer p.
func (t *Transport) failure(class transport.Class, p uint64, what string, err error) {
	if t.logFailure == nil || !t.logged.First(class, 0) {
		return
	}
	t.logFailure(fmt.Sprintf("first %s: producer %d (%s): %s: %v", class.Name(0), p, t.cfg.Source(int(p)).SourceName, what, err))
}

// connected makes c producer pc's connection; the caller holds pc.mu.
func (t *Transport) connected(pc *producerConn, c *conn) {
	pc.c, pc.up, pc.redial, pc.onConn = c, t.cfg.Clock.Now(), minRedial, 0
	pc.live.Store(c)
	if pc.connects.Add(1) > 1 {
		pc.reconnects.Add(1)
	}
	t.mu.Lock()
	_ = t.connect.RecordValue(result.Micros(c.connect)) // clamped into range: cannot fail
	if t.cfg.TLS != nil {
		_ = t.handshake.RecordValue(result.Micros(c.handshake))
	}
	t.mu.Unlock()
}

// dropped ends producer pc's connection after a failed write; the caller
// holds pc.mu.
func (t *Transport) dropped(pc *producerConn, cause transport.Class) {
	if c := pc.live.Swap(nil); c != nil {
		c.Close()
	}
	pc.c = nil
	t.mu.Lock()
	t.drops[cause.Name(0)]++
	t.mu.Unlock()
}

// redial tries to re-make producer pc's connection, unless the back-off
// after the last failure still runs; the caller holds pc.mu.
func (t *Transport) redial(pc *producerConn, p uint64, now time.Time) bool {
	if now.Before(pc.nextDial) || t.closed.Load() {
		return false
	}
	c, err := dial(context.Background(), &t.cfg)
	if err != nil {
		t.failure(transport.ClassifyNet(err), p, "connect to "+t.cfg.Addr, err)
		pc.nextDial = t.cfg.Clock.Now().Add(pc.redial)
		pc.redial = min(2*pc.redial, maxRedial)
		t.mu.Lock()
		t.dialErrors[Cause(err)]++
		t.mu.Unlock()
		return false
	}
	t.connected(pc, c)
	if t.closed.Load() { // Close may have passed this connection by
		c.Close()
	}
	return true
}

type sender struct{ t *Transport }

// Send writes request r as a frame on its producer's connection,
// re-making a dropped connection first; a message due while the
// connection was down is disconnected.
func (s sender) Send(r *transport.Request, o *transport.Outcome) {
	t := s.t
	cfg := &t.cfg
	n := uint64(r.Seq)
	p := n % uint64(cfg.Producers)
	pc := t.conns[p]
	pc.queued.Add(1)
	pc.mu.Lock()
	defer pc.mu.Unlock()
	// Message i of the producer waits until the ones before it are
	// written: they were handed to the engine's workers before it.
	i := n / uint64(cfg.Producers)
	for pc.turn < i && !t.closed.Load() {
		pc.next.Wait()
	}
	pc.queued.Add(-1)
	defer func() {
		pc.turn = max(pc.turn, i+1)
		pc.next.Broadcast()
	}()
	now := cfg.Clock.Now()
	o.Written, o.Done, o.BytesSent, o.Connect = now, now, 0, 0
	if pc.c == nil && !t.redial(pc, p, now) || r.Due.Before(pc.up) {
		o.Class, o.Done = transport.Disconnected, cfg.Clock.Now()
		if t.closed.Load() { // cut off by an abort, not by the collector
			o.Class = transport.Aborted
			return
		}
		pc.disconnected.Add(1)
		return
	}
	frame, err := pc.enc.Frame(wtp.Message{GlobalSeq: n, Sequence: uint32(i),
		EpochMicros: uint64(r.Due.UnixMicro())})
	if err != nil { // cannot happen for a size Check accepted
		o.Class, o.Done = transport.Other, cfg.Clock.Now()
		return
	}
	o.Written = cfg.Clock.Now()
	_ = pc.c.SetWriteDeadline(o.Written.Add(cfg.WriteTimeout)) // an error shows in the write
	// A message queued behind this one is due already and is written
	// next: the kernel may hold this frame until it comes (MSG_MORE).
	_, err = pc.c.write(frame, pc.queued.Load() > 0)
	o.Done = cfg.Clock.Now()
	if err != nil {
		o.Class = transport.ClassifyNet(err)
		if t.closed.Load() {
			o.Class = transport.Aborted
		}
		pc.failed.Add(1)
		if o.Class != transport.Aborted { // the run's own close broke nothing
			pc.intoBroken.Add(pc.onConn)
		}
		pc.onConn = 0
		t.failure(o.Class, p, fmt.Sprintf("write of message %d", i), err)
		t.dropped(pc, o.Class)
		return
	}
	pc.onConn++
	o.Class, o.BytesSent = transport.OK, int64(len(frame))
	t.wrote.add(r.Due.Add(-cfg.Due(int(p), int(i))), o.Done, o.BytesSent)
	pc.written.Add(1)
	pc.bytes.Add(int64(len(frame)))
}
