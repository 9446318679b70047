package hv

import (
	"fmt"
	"math"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
)

// WorkersPerProducer is how many of the engine's workers each producer
// may keep: one writes, the others wait in its lock with the next due
// messages, so a producer behind schedule still has its messages taken
// in order while the other producers' workers stay free.
const WorkersPerProducer = 4

// waitForever is the pool wait of an HV-VES run: a message waits for its
// producer however far behind it is.
const waitForever = time.Duration(math.MaxInt64)

// frames is the engine's Body of an HV-VES run: the transport encodes
// each frame itself, from the request's number and due time.
type frames struct{}

// AppendBody implements engine.Body.
func (frames) AppendBody(dst []byte, _ uint64, _ time.Time) []byte { return dst }

// EngineConfig is the engine's configuration of an HV-VES run, with its
// Transport (docs/ARCHITECTURE.md, "HV-VES through the engine"):
//
//   - Load is the constant rate of Producers / Interval messages a second
//     for Messages intervals, so that request n is due at n·Interval /
//     Producers, which is Config.Due of message n / Producers of producer
//     n mod Producers; a shard's view holds exactly its producers'
//     messages (engine.Shard with Cycle = Producers).
//   - The pool is WorkersPerProducer workers per producer, and a due
//     message may wait for a worker as long as it takes (the pool wait
//     is unbounded): a producer behind schedule (a collector that reads
//     slowly) holds its workers in its write lock, the next messages wait
//     for a worker, oldest first, and are written late. Back-pressure is
//     latency (due → written), as for a producer writing its messages in
//     a loop, never pool_exhausted. The run ends once the backlog is
//     written (each write is bounded by the write timeout, after which the
//     connection drops and the messages due before it is re-made are
//     disconnected at once), or at a stop: what still waits is not sent.
//   - Timeout, the drain bound of the writes in progress at the end, is
//     the write timeout.
//
// The caller adds the observers and samplers.
func EngineConfig(cfg Config) (engine.Config, *Transport, error) {
	tr, err := NewTransport(cfg)
	if err != nil {
		return engine.Config{}, nil, err
	}
	cfg = tr.cfg
	if len(tr.mine) == 0 {
		return engine.Config{}, nil, fmt.Errorf("--shard %s: this shard gets none of the %d producers (fewer producers than shards)",
			cfg.Shard, cfg.Producers)
	}
	rate := float64(cfg.Producers) / cfg.Interval.Seconds()
	sched, err := engine.Constant(rate, time.Duration(cfg.Messages)*cfg.Interval)
	if err != nil {
		return engine.Config{}, nil, fmt.Errorf("--interval %v with %d producers: %w", cfg.Interval, cfg.Producers, err)
	}
	if sched.Total() != int64(cfg.Producers)*int64(cfg.Messages) {
		return engine.Config{}, nil, fmt.Errorf("schedule of %d producers × %d every %v holds %d messages", cfg.Producers,
			cfg.Messages, cfg.Interval, sched.Total())
	}
	var load engine.Model = sched
	if !cfg.Shard.Whole() {
		sh := cfg.Shard
		sh.Cycle = cfg.Producers
		if load, err = sched.Shard(sh); err != nil {
			return engine.Config{}, nil, err
		}
	}
	pool := WorkersPerProducer * max(len(tr.mine), 1)
	return engine.Config{
		Load: load, Body: frames{}, Transport: tr,
		Pool: pool, PoolWait: waitForever, Timeout: cfg.WriteTimeout,
		Start: cfg.Start, Clock: cfg.Clock,
	}, tr, nil
}
