package publish

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/vesload/vesload/internal/waitfor"
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
			got := starts()
			if c.bounded {
				waitfor.True(5*time.Second, 50*time.Millisecond, func() bool {
					got = starts()
					return got[topics[0]] >= 50 && got[topics[1]] >= 50
				})
			} else {
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

// TestBoundedBrokerDeletesFetchedRecords: a bounded broker deletes the
// records its consumer has fetched long before their retention, and keeps
// those of a topic nobody reads.
func TestBoundedBrokerDeletesFetchedRecords(t *testing.T) {
	t.Parallel()
	b, err := StartBrokerWith("127.0.0.1:0", BrokerOptions{Bounded: true, Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	read, unread := Topics()[0], Topics()[1]
	pr, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	const n = 60
	for i := range n {
		for _, topic := range []string{read, unread} {
			if err := pr.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: make([]byte, 1<<10+i)}).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
	}
	cons, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.ConsumeTopics(read),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Close()
	for got := 0; got < n; {
		fs := cons.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			t.Fatalf("read %d of %d records: %v", got, n, err)
		}
		got += fs.NumRecords()
	}
	adm := kadm.NewClient(pr)
	starts := func() map[string]int64 {
		so, err := adm.ListStartOffsets(ctx, read, unread)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]int64{}
		so.Each(func(o kadm.ListedOffset) { m[o.Topic] += o.Offset })
		return m
	}
	// The consumer keeps fetching past what it read: the broker hears its
	// offsets at each poll.
	deadline := time.Now().Add(10 * time.Second)
	got := starts()
	for got[read] < n && time.Now().Before(deadline) {
		polled, pcancel := context.WithTimeout(ctx, 100*time.Millisecond)
		cons.PollFetches(polled)
		pcancel()
		got = starts()
	}
	if got[read] != n || got[unread] != 0 {
		t.Errorf("start offsets %v, want %d in %s (read) and 0 in %s (unread)", got, n, read, unread)
	}
}
