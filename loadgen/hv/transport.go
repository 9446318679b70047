package hv

import (
	"context"
	"fmt"
	"sync"

	"github.com/vesload/vesload/loadgen/hv/wtp"
	"github.com/vesload/vesload/loadgen/transport"
)

// Transport sends HV-VES frames behind the engine's transport seam
// (docs/ARCHITECTURE.md, "Transport"), so that the engine's observers,
// checkpoints and live metrics see an HV-VES run as they see a REST one.
// Request n is message n / Producers of producer n mod Producers: the
// engine's constant-rate schedule of Producers / Interval messages a
// second is exactly the producers' phase-spread schedule (Config.Due), and
// the eventIds, sequences and sourceNames are those Run sends.
//
// Give the engine a pool of a few workers per producer and a pool wait:
// a worker then waits for its producer's connection (writes to one
// connection are serialised) instead of a due message counting as
// pool_exhausted whenever one write is slow. What the engine cannot
// express stays with Run: a message due while its
// producer's connection is down is an error of the connection's class here
// (the engine has no "not sent" for a due request), and the per-producer
// figures, connect and handshake times and the data-rate section of the
// result are Run's.
type Transport struct {
	cfg   Config
	conns []*producerConn
}

// producerConn is one producer's connection and encoder; the engine's
// workers may reach the same producer at once when behind schedule, so
// writes take its lock.
type producerConn struct {
	mu  sync.Mutex
	c   *conn
	enc *wtp.Encoder
}

var _ transport.Transport = (*Transport)(nil)

// NewTransport checks cfg (Messages is the engine's to count and is not
// used) and prepares one encoder per producer.
func NewTransport(cfg Config) (*Transport, error) {
	if cfg.Messages < 1 {
		cfg.Messages = 1
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	t := &Transport{cfg: cfg, conns: make([]*producerConn, cfg.Producers)}
	for p := range t.conns {
		enc, err := wtp.NewEncoder(cfg.Source(p), cfg.Size)
		if err != nil {
			return nil, fmt.Errorf("--size: %w", err)
		}
		t.conns[p] = &producerConn{enc: enc}
	}
	return t, nil
}

// Preflight connects once.
func (t *Transport) Preflight(ctx context.Context) error {
	c, err := dial(ctx, &t.cfg)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", t.cfg.Addr, err)
	}
	return c.Close()
}

// Warm opens every producer's connection (n, the engine's pool, is at
// least the number of producers when the pool is sized for them).
func (t *Transport) Warm(int) {
	var wg sync.WaitGroup
	for _, pc := range t.conns {
		wg.Go(func() {
			pc.mu.Lock()
			defer pc.mu.Unlock()
			if pc.c == nil {
				pc.c, _ = dial(context.Background(), &t.cfg) // a failure shows on the first send
			}
		})
	}
	wg.Wait()
}

// NewSender returns a sender; senders share the producers' connections.
func (t *Transport) NewSender() (transport.Sender, func()) {
	return sender{t}, func() {}
}

// Close closes every connection.
func (t *Transport) Close() {
	for _, pc := range t.conns {
		pc.mu.Lock()
		if pc.c != nil {
			pc.c.Close()
			pc.c = nil
		}
		pc.mu.Unlock()
	}
}

type sender struct{ t *Transport }

// Send writes request r as a frame of its producer's connection,
// connecting first when the connection is down.
func (s sender) Send(r *transport.Request, o *transport.Outcome) {
	cfg := &s.t.cfg
	n := uint64(r.Seq)
	pc := s.t.conns[n%uint64(cfg.Producers)]
	pc.mu.Lock()
	defer pc.mu.Unlock()
	o.Written = cfg.Clock.Now()
	if pc.c == nil {
		c, err := dial(context.Background(), cfg)
		if err != nil {
			o.Class, o.Done = transport.ClassifyNet(err), cfg.Clock.Now()
			return
		}
		pc.c = c
	}
	frame, err := pc.enc.Frame(wtp.Message{GlobalSeq: n, Sequence: uint32(n / uint64(cfg.Producers)),
		EpochMicros: uint64(r.Due.UnixMicro())})
	if err != nil { // cannot happen for a size Check accepted
		o.Class, o.Done = transport.Other, cfg.Clock.Now()
		return
	}
	o.Written = cfg.Clock.Now()
	_ = pc.c.SetWriteDeadline(o.Written.Add(cfg.WriteTimeout)) // an error shows in the write
	_, err = pc.c.Write(frame)
	o.Done = cfg.Clock.Now()
	if err != nil {
		o.Class = transport.ClassifyNet(err)
		pc.c.Close()
		pc.c = nil
		return
	}
	o.Class, o.BytesSent = transport.OK, int64(len(frame))
}
