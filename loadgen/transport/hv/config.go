package hv

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport/hv/wtp"
)

// Defaults of the connection handling.
const (
	DefaultDialTimeout  = 5 * time.Second
	DefaultWriteTimeout = 30 * time.Second
)

// Config is one HV-VES run.
type Config struct {
	Addr      string        // HOST:PORT of the collector
	Producers int           // independent connections
	Messages  int           // messages per producer
	Size      int           // bytes of every VesEvent (the WTP payload)
	Interval  time.Duration // between two messages of one producer
	Domain    string        // commonEventHeader.domain (perf3gpp when empty)
	RunID     string        // eventId prefix: unique across runs
	// TLS, when set, wraps every connection (client certificate,
	// verification); nil is plain TCP.
	TLS *tls.Config
	// DialTimeout bounds a connection's set-up, handshake included.
	DialTimeout time.Duration
	// WriteTimeout bounds one blocked write; past it the connection is
	// counted as dropped ("timeout") and re-made.
	WriteTimeout time.Duration
	// ProbeWait is how long each new connection is read, silent, before
	// the run starts (DefaultProbeWait when zero; negative skips it).
	ProbeWait time.Duration
	// Clock is the run's time source (clock.System when nil): the
	// producers' connection times and outcomes read it, and EngineConfig
	// hands it to the engine, so that one clock drives the whole run.
	Clock clock.Clock
	// Shard, when it splits the run, runs only the producers
	// p ≡ Shard.Index (mod Shard.Count), with their run-wide numbers
	// (EngineConfig gives the engine the matching view of the schedule).
	// Start, when set, starts the schedule at an instant all shards
	// share; a shard later than its tolerance does not run.
	Shard engine.Shard
	Start *engine.StartGate
}

// IntervalForRate is the per-producer interval that gives rate messages
// a second in total over n producers.
func IntervalForRate(rate float64, n int) (time.Duration, error) {
	if err := engine.CheckRate(rate); err != nil {
		return 0, fmt.Errorf("rate %v: %w", rate, err)
	}
	if rate == 0 || n < 1 {
		return 0, fmt.Errorf("rate %v with %d producers: want a positive rate", rate, n)
	}
	f := float64(n) / rate * float64(time.Second)
	if f > float64(engine.MaxDuration) {
		return 0, fmt.Errorf("rate %v/s over %d producers: each would send once every %.0fh, longer than %s, the longest run", rate, n, f/float64(time.Hour), long(engine.MaxDuration))
	}
	d := time.Duration(f)
	if d <= 0 {
		return 0, fmt.Errorf("rate %v/s is too high for %d producers", rate, n)
	}
	return d, nil
}

// Source is the per-producer part of every message header: the
// sourceName names the producer, so a collector's per-source view splits
// the run by producer.
func (c Config) Source(p int) wtp.Source {
	return wtp.Source{
		RunID: c.RunID, Domain: c.Domain, ReportingEntityName: "vesload",
		SourceName: fmt.Sprintf("vesload-hv-%d", p), NfVendorName: "vesload",
	}
}

// Labels names each message by its producer's sourceName, as the JTL's
// label and other per-message outputs do: request n of the engine is
// producer n mod Producers's.
func (c Config) Labels() func(seq int64) string {
	names := make([]string, max(c.Producers, 1))
	for p := range names {
		names[p] = c.Source(p).SourceName
	}
	return func(seq int64) string { return names[seq%int64(len(names))] }
}

// Limits of a run's producers, besides engine.MaxDuration on its span.
const (
	// MaxProducers bounds the producers of a run, each a connection of
	// its own: one generator reaches a collector's address over at most
	// some 28,000 source ports (Linux's default range), and a sharded run
	// of a few such generators stays under it.
	MaxProducers = 100_000
	// MaxBuffers bounds what one generator's producers hold for their
	// messages (each a buffer of --size and one to encode into): the
	// product of producers and size, so that a large run is refused
	// before it takes the machine's memory rather than after.
	MaxBuffers = 256 << 20
)

// Check validates the configuration; errors name the setting as the
// command line spells it.
func (c Config) Check() error {
	switch {
	case c.Addr == "":
		return errors.New("--addr: missing HOST:PORT")
	case !validAddr(c.Addr):
		return fmt.Errorf("--addr: want HOST:PORT, got %q", c.Addr)
	}
	if err := c.CheckSchedule(); err != nil {
		return err
	}
	if min := wtp.MinSize(c.Source(c.Producers - 1)); c.Size < min || c.Size > wtp.MaxPayload {
		return fmt.Errorf("--size: want %d to %d bytes (the smallest valid event to 1 MiB), got %d", min, wtp.MaxPayload, c.Size)
	}
	return nil
}

// CheckSchedule checks the producers, their messages and their interval
// against the limits every run has (MaxProducers, engine.MaxDuration), so
// that the schedule's every due time is computable and nothing is sized
// by a number nobody meant, before anything starts.
func (c Config) CheckSchedule() error {
	switch {
	case c.Producers < 1 || c.Producers > MaxProducers:
		return fmt.Errorf("--producers: want 1 to %d, got %d", MaxProducers, c.Producers)
	case c.Messages < 1:
		return fmt.Errorf("--messages: want at least 1, got %d", c.Messages)
	case c.Interval <= 0:
		return fmt.Errorf("--interval: want a positive duration, got %v", c.Interval)
	case c.Interval > engine.MaxDuration:
		return fmt.Errorf("--interval %s: longer than %s, the longest run", long(c.Interval), long(engine.MaxDuration))
	case int64(c.Messages-1) > int64(engine.MaxDuration/c.Interval):
		return fmt.Errorf("--messages %d every %v: the run would last %s, longer than %s", c.Messages, c.Interval, span(c.Messages, c.Interval), long(engine.MaxDuration))
	}
	if mine := (c.Producers + max(c.Shard.Count, 1) - 1) / max(c.Shard.Count, 1); int64(mine)*int64(c.Size) > MaxBuffers {
		return fmt.Errorf("--producers %d of --size %d: %d MiB of message buffers in one generator, more than %d MiB (fewer producers, smaller messages, or shards)",
			mine, c.Size, int64(mine)*int64(c.Size)>>20, MaxBuffers>>20)
	}
	return nil
}

// span writes how long messages every interval last, in hours when that
// is more than a duration holds.
func span(messages int, interval time.Duration) string {
	return fmt.Sprintf("%.0fh", float64(messages-1)*interval.Hours())
}

// long writes a duration of whole hours as "8784h", others as Go does.
func long(d time.Duration) string {
	if d%time.Hour == 0 {
		return fmt.Sprintf("%dh", d/time.Hour)
	}
	return d.String()
}

func (c Config) withDefaults() Config {
	if c.DialTimeout <= 0 {
		c.DialTimeout = DefaultDialTimeout
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = DefaultWriteTimeout
	}
	if c.ProbeWait == 0 {
		c.ProbeWait = DefaultProbeWait
	}
	c.Clock = clock.Default(c.Clock)
	if c.TLS != nil && c.TLS.ServerName == "" && !c.TLS.InsecureSkipVerify {
		c.TLS = c.TLS.Clone()
		if host, _, err := net.SplitHostPort(c.Addr); err == nil {
			c.TLS.ServerName = host // verify the certificate against the address dialled
		}
	}
	return c
}

// Phase is producer p's offset from the start: the producers are spread
// evenly over one interval.
func (c Config) Phase(p int) time.Duration {
	return time.Duration(int64(c.Interval) * int64(p) / int64(c.Producers))
}

// Due is when message i of producer p is due, from the start.
func (c Config) Due(p, i int) time.Duration {
	return c.Phase(p) + time.Duration(i)*c.Interval
}

// GlobalSeq numbers message i of producer p across the run, in due-time
// order: the eventId suffix.
func (c Config) GlobalSeq(p, i int) uint64 {
	return uint64(i)*uint64(c.Producers) + uint64(p)
}

// Span is the time from the first message due to the last.
func (c Config) Span() time.Duration {
	return c.Due(c.Producers-1, c.Messages-1)
}

func validAddr(a string) bool {
	host, port, err := net.SplitHostPort(a)
	return err == nil && host != "" && port != ""
}
