package publish

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/kafkaconf"
)

// Config is the Kafka generation of an emulator as `vesload serve` and a
// run's built-in emulator ask for it: an embedded broker or an external
// one, and the publisher's faults. It exists so that the emulator's
// publishing is set up, described and closed one way wherever it runs;
// Check's errors name the vesload serve flag each field comes from.
type Config struct {
	// Embedded, when set, is the HOST:PORT of an in-process broker to
	// start; URL is an external broker (kafka://HOST:PORT, no topic).
	// At most one is set; neither means no publishing.
	Embedded, URL string
	// Drop, Delay, Buffer, MaxBlock and Seed are the Publisher's Options.
	Drop            float64
	Delay, MaxBlock time.Duration
	Buffer          int
	Seed            uint64
	// BeforeAck answers before the broker acknowledges (BeforeAck mode).
	BeforeAck bool
	// Bounded keeps the embedded broker's backlog bounded (see
	// BrokerOptions).
	Bounded bool
}

// Enabled reports whether the emulator publishes at all.
func (c *Config) Enabled() bool { return c.Embedded != "" || c.URL != "" }

// Check validates the configuration; every error names its flag.
func (c *Config) Check() error {
	if c.Embedded != "" && c.URL != "" {
		return errors.New("--kafka-embedded and --publish: give only one")
	}
	if c.URL != "" {
		e, err := kafkaconf.ParseURL(c.URL)
		if err != nil {
			return fmt.Errorf("--publish: %w", err)
		}
		if e.Topic != "" {
			return errors.New("--publish: want kafka://HOST:PORT without a topic (topics follow the stream mapping)")
		}
	}
	if !(c.Drop >= 0 && c.Drop <= 1) {
		return fmt.Errorf("--publish-drop: want a fraction between 0 and 1, got %v", c.Drop)
	}
	switch {
	case c.Delay < 0:
		return fmt.Errorf("--publish-delay: must not be negative, got %v", c.Delay)
	case c.MaxBlock <= 0:
		return fmt.Errorf("--publish-max-block: must be positive, got %v", c.MaxBlock)
	case c.Buffer < 1:
		return fmt.Errorf("--publish-buffer: want at least 1, got %d", c.Buffer)
	}
	if !c.Enabled() && (c.Drop > 0 || c.Delay > 0 || c.BeforeAck) {
		return errors.New("--publish-drop, --publish-delay and --compat kafka need --kafka-embedded or --publish")
	}
	return nil
}

// Generation is a running Kafka generation: the embedded broker, when
// there is one, and the publisher that feeds it. The emulator hands it
// bodies through Publish (testserver.Options.Publish) and HV-VES
// messages through PublishRecord.
type Generation struct {
	cfg     Config
	broker  *Broker
	pub     *Publisher
	brokers string
}

// StartGeneration starts the broker (when embedded) and the publisher;
// nil, and no error, when c asks for no publishing. c must have passed
// Check.
func StartGeneration(c Config) (*Generation, error) {
	if !c.Enabled() {
		return nil, nil
	}
	g := &Generation{cfg: c}
	var brokers []string
	if c.Embedded != "" {
		b, err := StartBrokerWith(c.Embedded, BrokerOptions{Bounded: c.Bounded})
		if err != nil {
			return nil, err
		}
		g.broker, brokers = b, []string{b.Addr()}
	} else {
		e, err := kafkaconf.ParseURL(c.URL)
		if err != nil {
			return nil, fmt.Errorf("--publish: %w", err)
		}
		brokers = e.Brokers
	}
	g.brokers = strings.Join(brokers, ",")
	kopts, err := kafkaconf.Config{Brokers: brokers}.Opts()
	if err == nil {
		mode := AfterAck
		if c.BeforeAck {
			mode = BeforeAck
		}
		g.pub, err = New(Options{Kafka: kopts, Mode: mode, Drop: c.Drop, Delay: c.Delay,
			Buffer: c.Buffer, MaxBlock: c.MaxBlock, Seed: c.Seed})
	}
	if err != nil {
		_ = g.Close() // nothing was published: only the broker to stop
		return nil, err
	}
	return g, nil
}

// Brokers are the broker addresses, comma-separated, that consumers of
// the emulator's topics connect to.
func (g *Generation) Brokers() string { return g.brokers }

// Publish publishes the events of an accepted request: the emulator's
// Options.Publish.
func (g *Generation) Publish(body []byte, batch bool, quit <-chan struct{}) error {
	return g.pub.Publish(body, batch, quit)
}

// PublishRecord publishes one record unchanged to topic (an HV-VES
// message to its route's topic). A failure is counted in the Summary:
// HV-VES answers nothing, so nobody else would hear of it.
func (g *Generation) PublishRecord(topic string, value []byte) {
	_ = g.pub.PublishRecord(topic, value, nil)
}

// Describe says where events go and how, for the emulator's start line.
func (g *Generation) Describe() string {
	where := "Kafka at " + g.brokers
	if g.broker != nil {
		where = "embedded Kafka at " + g.brokers
	}
	mode := "answer after the broker acknowledges"
	if g.cfg.BeforeAck {
		mode = "answer before the broker acknowledges"
	}
	parts := []string{"publishing to " + where, mode}
	if g.cfg.Drop > 0 {
		parts = append(parts, fmt.Sprintf("drop %g (seed %d)", g.cfg.Drop, g.pub.Seed()))
	}
	if g.cfg.Delay > 0 {
		parts = append(parts, fmt.Sprintf("delay %v", g.cfg.Delay))
	}
	return strings.Join(parts, ", ")
}

// Summary is the publisher's part of the emulator's closing lines.
func (g *Generation) Summary() string {
	st := g.pub.Stats()
	return fmt.Sprintf("kafka: %d events published, %d dropped, %d unrouted, %d failed, %d requests stalled",
		st.Published, st.Dropped, st.Unrouted, st.Failed, st.Stalled)
}

// Close flushes the publisher (for up to its delay plus 10 s) and stops
// the broker.
func (g *Generation) Close() error {
	var err error
	if g.pub != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second+g.pub.Delay())
		err = g.pub.Close(ctx)
		cancel()
	}
	if g.broker != nil {
		g.broker.Close()
	}
	return err
}
