package publish

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// DefaultRetention is how long a bounded broker keeps a record that no
// consumer has fetched: seconds of lag for the run's consumer, which reads
// records as they arrive.
const DefaultRetention = 10 * time.Second

// retainEvery is how often a bounded broker deletes what was fetched or
// expired.
const retainEvery = 250 * time.Millisecond

// snapshot is every partition's end offset at one moment: the records
// below it were all produced by then.
type snapshot struct {
	at   time.Time
	ends kadm.Offsets
}

// partKey names a partition as a fetch request does: by topic name
// (fetch versions below 13) or by topic ID (13 and later).
type partKey struct {
	topic     string
	id        [16]byte
	partition int32
}

// fetchWatch records, per partition, the offset consumers last asked to
// fetch from: every record below it was delivered (or skipped on
// purpose), so a broker with one consumer need not keep it. It observes
// the broker's Fetch requests without handling them.
type fetchWatch struct {
	mu   sync.Mutex
	next map[partKey]int64
}

func newFetchWatch() *fetchWatch { return &fetchWatch{next: map[partKey]int64{}} }

// observe fits kfake's ControlKey: it notes the fetch offsets and lets
// the broker answer the request as usual. A partition missing from an
// incremental fetch keeps its offset, as the fetch session does.
func (w *fetchWatch) observe(req kmsg.Request) (kmsg.Response, error, bool) {
	r, ok := req.(*kmsg.FetchRequest)
	if !ok {
		return nil, nil, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, t := range r.Topics {
		k := partKey{topic: t.Topic}
		if r.Version >= 13 {
			k = partKey{id: t.TopicID}
		}
		for _, p := range t.Partitions {
			k.partition = p.Partition
			w.next[k] = p.FetchOffset
		}
	}
	return nil, nil, false
}

// offsets returns a copy of the fetch offsets noted so far.
func (w *fetchWatch) offsets() map[partKey]int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps.Clone(w.next)
}

// retainer deletes, through the broker's own DeleteRecords, the records
// a consumer has fetched past and those produced more than the retention
// ago, until stopped. Deleting what was fetched keeps the broker's memory
// at the consumer's lag, not at the rate times the retention.
type retainer struct {
	keep    time.Duration
	cluster *kfake.Cluster
	fetched *fetchWatch
	admin   *kgo.Client
	cancel  context.CancelFunc
	done    chan struct{}

	names   map[[16]byte]string // topic IDs of fetch requests, resolved
	deleted map[partKey]int64   // by topic name: the offset deleted up to
}

func startRetainer(c *kfake.Cluster, addr string, keep time.Duration) (*retainer, error) {
	admin, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &retainer{keep: keep, cluster: c, fetched: newFetchWatch(), admin: admin, cancel: cancel,
		done: make(chan struct{}), names: map[[16]byte]string{}, deleted: map[partKey]int64{}}
	c.ControlKey(int16(kmsg.Fetch), r.fetched.observe)
	go r.run(ctx, time.Now)
	return r, nil
}

func (r *retainer) run(ctx context.Context, now func() time.Time) {
	defer close(r.done)
	adm := kadm.NewClient(r.admin)
	tick := time.NewTicker(retainEvery)
	defer tick.Stop()
	var past []snapshot
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		ends, err := adm.ListEndOffsets(ctx)
		if err != nil {
			continue
		}
		latest := ends.Offsets()
		past = append(past, snapshot{now(), latest})
		// The newest snapshot older than the retention marks what expired.
		var expired kadm.Offsets
		for len(past) > 0 && now().Sub(past[0].at) >= r.keep {
			expired, past = past[0].ends, past[1:]
		}
		if del := r.deletable(expired, latest); len(del) > 0 {
			if resp, err := adm.DeleteRecords(ctx, del); err == nil {
				r.record(resp) // a failure is retried at the next tick
			}
		}
	}
}

// deletable is, per partition, the higher of the expired end offset and
// the consumers' fetch offset (never past the end), where it is beyond
// what was already deleted.
func (r *retainer) deletable(expired, latest kadm.Offsets) kadm.Offsets {
	want := map[partKey]int64{}
	expired.Each(func(o kadm.Offset) { want[partKey{topic: o.Topic, partition: o.Partition}] = o.At })
	for k, at := range r.fetched.offsets() {
		if k.topic == "" {
			k.topic = r.name(k.id)
		}
		end, ok := latest.Lookup(k.topic, k.partition)
		if !ok || k.topic == "" {
			continue
		}
		k.id = [16]byte{}
		want[k] = max(want[k], min(at, end.At))
	}
	out := kadm.Offsets{}
	for k, at := range want {
		if at > r.deleted[k] {
			out.AddOffset(k.topic, k.partition, at, -1)
		}
	}
	return out
}

// name resolves a topic ID, "" when the broker does not know it.
func (r *retainer) name(id [16]byte) string {
	if n, ok := r.names[id]; ok {
		return n
	}
	info := r.cluster.TopicIDInfo(id)
	if info == nil {
		return ""
	}
	r.names[id] = info.Topic
	return info.Topic
}

// record notes the partitions deleted up to a new start offset.
func (r *retainer) record(resp kadm.DeleteRecordsResponses) {
	resp.Each(func(d kadm.DeleteRecordsResponse) {
		if d.Err == nil {
			r.deleted[partKey{topic: d.Topic, partition: d.Partition}] = d.LowWatermark
		}
	})
}

func (r *retainer) stop() {
	r.cancel()
	<-r.done
	r.admin.Close()
}
