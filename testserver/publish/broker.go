package publish

import (
	"fmt"
	"net"
	"strconv"

	"github.com/twmb/franz-go/pkg/kfake"
)

// Broker is an in-process Kafka broker (franz-go's kfake) for the
// emulator and tests: one broker, the collector's output topics created
// up front with Partitions partitions each, other topics created on
// first use. It keeps everything in memory.
type Broker struct {
	cluster *kfake.Cluster
	addr    string
}

// Partitions is the partition count of the embedded broker's topics:
// more than one, so that per-partition ordering is exercised.
const Partitions = 3

// StartBroker listens on addr (HOST:PORT; port 0 picks a free one).
func StartBroker(addr string) (*Broker, error) {
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
	c, err := kfake.NewCluster(
		kfake.NumBrokers(1), kfake.Ports(port), kfake.ListenFn(listen),
		kfake.AllowAutoTopicCreation(), kfake.DefaultNumPartitions(Partitions),
		kfake.SeedTopics(Partitions, Topics()...),
	)
	if err != nil {
		return nil, fmt.Errorf("start embedded Kafka on %s: %w", addr, err)
	}
	addrs := c.ListenAddrs()
	if len(addrs) == 0 {
		c.Close()
		return nil, fmt.Errorf("start embedded Kafka on %s: no listener", addr)
	}
	return &Broker{cluster: c, addr: addrs[0]}, nil
}

// Addr is the broker's HOST:PORT, with the real port.
func (b *Broker) Addr() string { return b.addr }

// Close stops the broker and drops its data.
func (b *Broker) Close() { b.cluster.Close() }
