package delivery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Source is where the run's events are read back from.
type Source interface {
	// Preflight connects, checks the topic (and credentials), and fixes
	// the starting position. It runs before the first request, so that
	// every event of the run is after it.
	Preflight(ctx context.Context) error
	// Run reads records into t until ctx ends. now is the clock that
	// stamps when each record was read.
	Run(ctx context.Context, t *Tally, now func() time.Time) error
	// Close releases the connection (and, for Kafka, the consumer group).
	Close()
}

// Kafka reads a topic as its own consumer group, starting at the end
// offsets taken at Preflight.
type Kafka struct {
	opts   []kgo.Opt
	topic  string
	group  string
	admin  *kgo.Client
	client *kgo.Client
	lag    map[int32]int64
}

var _ Source = (*Kafka)(nil)

// NewKafka prepares a consumer of topic in group with the client options
// (brokers, TLS, SASL: see internal/kafkaconf). Nothing connects yet.
func NewKafka(opts []kgo.Opt, topic, group string) (*Kafka, error) {
	if topic == "" || group == "" {
		return nil, errors.New("kafka consumer: a topic and a group are needed")
	}
	// Few retries: a broker that hangs up on a bad password must fail
	// the preflight with its own error, not with the deadline.
	admin, err := kgo.NewClient(append([]kgo.Opt{kgo.RequestRetries(2)}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("kafka consumer: %w", err)
	}
	return &Kafka{opts: opts, topic: topic, group: group, admin: admin, lag: map[int32]int64{}}, nil
}

// Preflight lists the topic's end offsets (which proves the broker, the
// credentials and the topic) and commits them for the group, so that the
// group starts there however late it joins.
func (k *Kafka) Preflight(ctx context.Context) error {
	adm := kadm.NewClient(k.admin)
	ends, err := adm.ListEndOffsets(ctx, k.topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return fmt.Errorf("kafka topic %s: %w%s", k.topic, err, hint(err))
	}
	offsets := ends.Offsets()
	if len(offsets[k.topic]) == 0 {
		return fmt.Errorf("kafka topic %s: not found", k.topic)
	}
	if err := adm.CommitAllOffsets(ctx, k.group, offsets); err != nil {
		return fmt.Errorf("kafka group %s: commit start offsets: %w", k.group, err)
	}
	opts := append([]kgo.Opt{
		kgo.ConsumerGroup(k.group), kgo.ConsumeTopics(k.topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()),
		kgo.DisableAutoCommit(),
		kgo.FetchMaxWait(200 * time.Millisecond),
	}, k.opts...)
	if k.client, err = kgo.NewClient(opts...); err != nil {
		return fmt.Errorf("kafka consumer: %w", err)
	}
	return nil
}

// Run polls until ctx ends.
func (k *Kafka) Run(ctx context.Context, t *Tally, now func() time.Time) error {
	if k.client == nil {
		return errors.New("kafka consumer: Run before Preflight")
	}
	for {
		fs := k.client.PollFetches(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if fs.IsClientClosed() {
			return errors.New("kafka consumer closed")
		}
		fs.EachError(func(topic string, p int32, err error) {
			t.SourceError(fmt.Errorf("fetch %s/%d: %w", topic, p, err))
		})
		at := now()
		fs.EachPartition(func(p kgo.FetchTopicPartition) {
			if n := len(p.Records); n > 0 {
				k.lag[p.Partition] = max(p.HighWatermark-p.Records[n-1].Offset-1, 0)
			}
		})
		lag := k.totalLag()
		fs.EachRecord(func(r *kgo.Record) {
			t.Add(Record{Value: r.Value, Partition: r.Partition, Timestamp: r.Timestamp,
				TSType: tsType(r.Attrs.TimestampType()), Lag: lag}, at)
		})
	}
}

// hint explains the one error franz-go cannot: a broker that hangs up
// during the handshake.
func hint(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return " (the broker closed the connection: wrong credentials, or TLS/SASL settings that do not match its listener)"
	}
	return ""
}

func (k *Kafka) totalLag() int64 {
	var sum int64
	for _, l := range k.lag {
		sum += l
	}
	return sum
}

func tsType(t int8) TimestampType {
	switch t {
	case 0:
		return CreateTime
	case 1:
		return LogAppendTime
	}
	return NoTimestamp
}

// Close leaves the group, deletes it (it was the run's own), and closes
// the connections.
func (k *Kafka) Close() {
	if k.client != nil {
		k.client.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = kadm.NewClient(k.admin).DeleteGroup(ctx, k.group)
	k.admin.Close()
}
