package publish

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// DefaultRetention is how long a bounded broker keeps a record: seconds
// of lag for the run's consumer, which reads records as they arrive, and
// a memory that follows the rate, not the length of the run.
const DefaultRetention = 10 * time.Second

// retainEvery is how often a bounded broker deletes expired records.
const retainEvery = 250 * time.Millisecond

// snapshot is every partition's end offset at one moment: the records
// below it were all produced by then.
type snapshot struct {
	at   time.Time
	ends kadm.Offsets
}

// retainer deletes, through the broker's own DeleteRecords, the records
// produced more than the retention ago, until stopped.
type retainer struct {
	keep   time.Duration
	admin  *kgo.Client
	cancel context.CancelFunc
	done   chan struct{}
}

func startRetainer(addr string, keep time.Duration) (*retainer, error) {
	admin, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &retainer{keep: keep, admin: admin, cancel: cancel, done: make(chan struct{})}
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
		if ends, err := adm.ListEndOffsets(ctx); err == nil {
			past = append(past, snapshot{now(), ends.Offsets()})
		}
		// The newest snapshot older than the retention marks what expired.
		var expired kadm.Offsets
		for len(past) > 0 && now().Sub(past[0].at) >= r.keep {
			expired, past = past[0].ends, past[1:]
		}
		if expired != nil {
			_, _ = adm.DeleteRecords(ctx, nonEmpty(expired)) // a failure is retried at the next expiry
		}
	}
}

// nonEmpty drops the partitions with nothing to delete.
func nonEmpty(os kadm.Offsets) kadm.Offsets {
	out := kadm.Offsets{}
	os.Each(func(o kadm.Offset) {
		if o.At > 0 {
			out.AddOffset(o.Topic, o.Partition, o.At, -1)
		}
	})
	return out
}

func (r *retainer) stop() {
	r.cancel()
	<-r.done
	r.admin.Close()
}
