package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/kafkaconf"
	hvemu "github.com/vesload/vesload/testserver/hv"
	"github.com/vesload/vesload/testserver/publish"
)

// compatKafka is the --compat value of the Kafka generation of the
// collector: v7.2 answers, given before the broker acknowledges.
const compatKafka = "kafka"

// publishFlags are the emulator's Kafka flags (`vesload serve`).
type publishFlags struct {
	embedded, url   string
	drop            float64
	delay, maxBlock time.Duration
	buffer          int
	beforeAck       bool
	seed            uint64
	bounded         bool // the embedded broker keeps a bounded backlog
}

func addPublishFlags(fs *pflag.FlagSet, p *publishFlags) {
	fs.StringVar(&p.embedded, "kafka-embedded", "", "start an in-process Kafka broker on `HOST:PORT` and publish accepted events to it")
	fs.StringVar(&p.url, "publish", "", "publish accepted events to an external broker, `kafka://HOST:PORT`")
	fs.Float64Var(&p.drop, "publish-drop", 0, "fraction (0..1) of accepted events silently not published (a broken publisher)")
	fs.DurationVar(&p.delay, "publish-delay", 0, "hold every event this long before producing it")
	fs.IntVar(&p.buffer, "publish-buffer", publish.DefaultBuffer, "events buffered for the broker at most; a full buffer stalls requests")
	fs.DurationVar(&p.maxBlock, "publish-max-block", publish.DefaultMaxBlock, "how long a request waits for buffer room before its publish fails (the producer's max.block.ms)")
}

// enabled reports whether the emulator publishes to Kafka.
func (p *publishFlags) enabled() bool { return p.embedded != "" || p.url != "" }

// check validates the flags; every error names its flag.
func (p *publishFlags) check() error {
	if p.embedded != "" && p.url != "" {
		return fmt.Errorf("--kafka-embedded and --publish: give only one")
	}
	if p.url != "" {
		e, err := kafkaconf.ParseURL(p.url)
		if err != nil {
			return fmt.Errorf("--publish: %w", err)
		}
		if e.Topic != "" {
			return fmt.Errorf("--publish: want kafka://HOST:PORT without a topic (topics follow the stream mapping)")
		}
	}
	if !(p.drop >= 0 && p.drop <= 1) {
		return fmt.Errorf("--publish-drop: want a fraction between 0 and 1, got %v", p.drop)
	}
	switch {
	case p.delay < 0:
		return fmt.Errorf("--publish-delay: must not be negative, got %v", p.delay)
	case p.maxBlock <= 0:
		return fmt.Errorf("--publish-max-block: must be positive, got %v", p.maxBlock)
	case p.buffer < 1:
		return fmt.Errorf("--publish-buffer: want at least 1, got %d", p.buffer)
	}
	if !p.enabled() && (p.drop > 0 || p.delay > 0 || p.beforeAck) {
		return fmt.Errorf("--publish-drop, --publish-delay and --compat kafka need --kafka-embedded or --publish")
	}
	return nil
}

// kafkaSide is the emulator's Kafka generation: an optional embedded
// broker and the publisher that feeds it.
type kafkaSide struct {
	broker  *publish.Broker
	pub     *publish.Publisher
	brokers string
}

// start starts the broker (when embedded) and the publisher; nil when
// the flags ask for no publishing.
func (p *publishFlags) start() (*kafkaSide, error) {
	if !p.enabled() {
		return nil, nil
	}
	k := &kafkaSide{}
	if p.embedded != "" {
		b, err := publish.StartBrokerWith(p.embedded, publish.BrokerOptions{Bounded: p.bounded})
		if err != nil {
			return nil, err
		}
		k.broker, k.brokers = b, b.Addr()
	} else {
		e, _ := kafkaconf.ParseURL(p.url) // checked by check
		k.brokers = strings.Join(e.Brokers, ",")
	}
	kopts, err := kafkaconf.Config{Brokers: strings.Split(k.brokers, ",")}.Opts()
	if err == nil {
		mode := publish.AfterAck
		if p.beforeAck {
			mode = publish.BeforeAck
		}
		k.pub, err = publish.New(publish.Options{Kafka: kopts, Mode: mode, Drop: p.drop, Delay: p.delay,
			Buffer: p.buffer, MaxBlock: p.maxBlock, Seed: p.seed})
	}
	if err != nil {
		k.close()
		return nil, err
	}
	return k, nil
}

// publishHV publishes an HV-VES message unchanged to its route's topic
// (testserver/hv's OnMessage). A failure is counted by the publisher:
// HV-VES answers nothing, so nobody else would hear of it.
func (k *kafkaSide) publishHV(m *hvemu.Message) {
	_ = k.pub.PublishRecord(m.Topic, m.Payload, nil)
}

// describe says where events go, for the emulator's start line.
func (k *kafkaSide) describe(p *publishFlags) string {
	where := "Kafka at " + k.brokers
	if k.broker != nil {
		where = "embedded Kafka at " + k.brokers
	}
	mode := "answer after the broker acknowledges"
	if p.beforeAck {
		mode = "answer before the broker acknowledges"
	}
	parts := []string{"publishing to " + where, mode}
	if p.drop > 0 {
		parts = append(parts, fmt.Sprintf("drop %g (seed %d)", p.drop, k.pub.Seed()))
	}
	if p.delay > 0 {
		parts = append(parts, fmt.Sprintf("delay %v", p.delay))
	}
	return strings.Join(parts, ", ")
}

// summary is the publisher's part of the emulator's closing line.
func (k *kafkaSide) summary() string {
	st := k.pub.Stats()
	return fmt.Sprintf("kafka: %d events published, %d dropped, %d unrouted, %d failed, %d requests stalled",
		st.Published, st.Dropped, st.Unrouted, st.Failed, st.Stalled)
}

// close flushes the publisher (up to the delay plus 10 s) and stops the
// broker.
func (k *kafkaSide) close() error {
	var err error
	if k.pub != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second+k.pub.Delay())
		err = k.pub.Close(ctx)
		cancel()
	}
	if k.broker != nil {
		k.broker.Close()
	}
	return err
}
