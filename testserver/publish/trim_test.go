package publish

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestBoundedBrokerDeletesExpiredRecords: a bounded broker deletes the
// records produced more than its retention ago, read or not; a plain
// broker keeps everything.
func TestBoundedBrokerDeletesExpiredRecords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		bounded bool
	}{{"bounded", true}, {"keeping everything", false}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b, err := StartBrokerWith("127.0.0.1:0", BrokerOptions{Bounded: c.bounded, Retention: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(b.Close)
			cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.RecordPartitioner(kgo.ManualPartitioner()))
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			topics := Topics()[:2]
			for range 50 {
				for _, topic := range topics {
					if err := cl.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: make([]byte, 8<<10)}).FirstErr(); err != nil {
						t.Fatal(err)
					}
				}
			}
			adm := kadm.NewClient(cl)
			starts := func() map[string]int64 {
				so, err := adm.ListStartOffsets(ctx, topics...)
				if err != nil {
					t.Fatal(err)
				}
				m := map[string]int64{}
				so.Each(func(o kadm.ListedOffset) { m[o.Topic] += o.Offset })
				return m
			}
			deadline := time.Now().Add(5 * time.Second)
			got := starts()
			for c.bounded && (got[topics[0]] < 50 || got[topics[1]] < 50) && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
				got = starts()
			}
			if !c.bounded {
				time.Sleep(time.Second) // several retention periods
				got = starts()
			}
			want := map[bool]int64{true: 50, false: 0}[c.bounded]
			if got[topics[0]] != want || got[topics[1]] != want {
				t.Errorf("start offsets %v, want %d in each topic", got, want)
			}
		})
	}
}
