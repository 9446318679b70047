package publish

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// Broker is an in-process Kafka broker (franz-go's kfake) for the
// emulator and tests: one broker, the collector's output topics created
// up front with Partitions partitions each, other topics created on
// first use. It keeps everything in memory: every record, unless it was
// started with BrokerOptions.Bounded.
type Broker struct {
	cluster *kfake.Cluster
	addr    string
	retain  *retainer
}

// boundedSegment is the segment size of a bounded broker.
const boundedSegment = 2 << 20

// BrokerOptions configure an embedded broker.
type BrokerOptions struct {
	// Bounded deletes the records a consumer has fetched past, and the
	// others Retention after they were produced, so that the broker's
	// memory follows the consumer's lag (at most the rate times the
	// retention) and stays flat over a long run. It is for a broker with
	// one consumer: the built-in emulator of a run, read by the run's
	// delivery follower as records arrive; a second consumer behind the
	// first, or one lagging by more than the retention, misses records.
	Bounded bool
	// Retention is how long a bounded broker keeps a record no consumer
	// has fetched (DefaultRetention when 0).
	Retention time.Duration
}

// Partitions is the partition count of the embedded broker's topics:
// more than one, so that per-partition ordering is exercised.
const Partitions = 3

// StartBroker listens on addr (HOST:PORT; port 0 picks a free one) and
// keeps every record.
func StartBroker(addr string) (*Broker, error) { return StartBrokerWith(addr, BrokerOptions{}) }

// StartBrokerWith is StartBroker with options.
func StartBrokerWith(addr string, o BrokerOptions) (*Broker, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("embedded Kafka address %q: want HOST:PORT", addr)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("embedded Kafka address %q: bad port", addr)
	}
	listen := func(network, _ string) (net.Listener, error) {
		return net.Listen(network, net.JoinHostPort(host, strconv.Itoa(port)))
	}
	opts := []kfake.Opt{
		kfake.NumBrokers(1), kfake.Ports(port), kfake.ListenFn(listen),
		kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(Partitions),
		kfake.SeedTopics(Partitions, Topics()...),
	}
	if o.Bounded {
		// A segment is freed once all of it expired: small segments make
		// the memory follow the retention closely.
		opts = append(opts, kfake.BrokerConfigs(map[string]string{"log.segment.bytes": strconv.Itoa(boundedSegment)}))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		return nil, fmt.Errorf("start embedded Kafka on %s: %w", addr, err)
	}
	addrs := c.ListenAddrs()
	if len(addrs) == 0 {
		c.Close()
		return nil, fmt.Errorf("start embedded Kafka on %s: no listener", addr)
	}
	b := &Broker{cluster: c, addr: addrs[0]}
	if o.Bounded {
		if o.Retention <= 0 {
			o.Retention = DefaultRetention
		}
		if b.retain, err = startRetainer(c, b.addr, o.Retention); err != nil {
			c.Close()
			return nil, fmt.Errorf("start embedded Kafka on %s: %w", addr, err)
		}
	}
	return b, nil
}

// Addr is the broker's HOST:PORT, with the real port.
func (b *Broker) Addr() string { return b.addr }

// Close stops the broker and drops its data.
func (b *Broker) Close() {
	if b.retain != nil {
		b.retain.stop()
	}
	b.cluster.Close()
}
