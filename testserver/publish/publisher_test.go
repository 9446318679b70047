package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func startBroker(t *testing.T) *Broker {
	t.Helper()
	b, err := StartBroker("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func newPublisher(t *testing.T, b *Broker, o Options) *Publisher {
	t.Helper()
	o.Kafka = append(o.Kafka, kgo.SeedBrokers(b.Addr()))
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		p.Close(ctx)
	})
	return p
}

// readTopic reads want records of topic from the start, or fails after
// 10 s.
func readTopic(t *testing.T, b *Broker, topic string, want int) []*kgo.Record {
	t.Helper()
	c, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var recs []*kgo.Record
	for len(recs) < want && ctx.Err() == nil {
		f := c.PollFetches(ctx)
		f.EachRecord(func(r *kgo.Record) { recs = append(recs, r) })
	}
	if len(recs) != want {
		t.Fatalf("topic %s: %d records, want %d", topic, len(recs), want)
	}
	return recs
}

func eventID(t *testing.T, value []byte) string {
	t.Helper()
	var v struct {
		Event struct {
			Header struct {
				EventID string `json:"eventId"`
			} `json:"commonEventHeader"`
		} `json:"event"`
	}
	if err := json.Unmarshal(value, &v); err != nil {
		t.Fatalf("record value %q: %v", value, err)
	}
	return v.Event.Header.EventID
}

func body(domain, id string) string {
	return fmt.Sprintf(`{"commonEventHeader":{"domain":%q,"eventId":%q}}`, domain, id)
}

func TestPublishRoutesByDomain(t *testing.T) {
	t.Parallel()
	b := startBroker(t)
	for _, mode := range []Mode{AfterAck, BeforeAck} {
		p := newPublisher(t, b, Options{Mode: mode})
		m := fmt.Sprint(mode)
		if err := p.Publish([]byte(`{"event":`+body("fault", "f"+m)+`}`), false, nil); err != nil {
			t.Fatal(err)
		}
		batch := `{"eventList":[` + body("measurement", "m1"+m) + `,` + body("measurement", "m2"+m) + `]}`
		if err := p.Publish([]byte(batch), true, nil); err != nil {
			t.Fatal(err)
		}
		if err := p.Publish([]byte(`{"event":`+body("notification", "n")+`}`), false, nil); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := p.Close(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		if st := p.Stats(); st.Published != 3 || st.Unrouted != 1 || st.Dropped != 0 || st.Failed != 0 {
			t.Errorf("mode %d: stats %+v, want 3 published and 1 unrouted", mode, st)
		}
	}
	faults := readTopic(t, b, "unauthenticated.SEC_FAULT_OUTPUT", 2)
	got := []string{eventID(t, faults[0].Value), eventID(t, faults[1].Value)}
	sort.Strings(got) // the records may sit on different partitions
	if got[0] != "f0" || got[1] != "f1" {
		t.Errorf("fault topic holds %v, want f0 f1", got)
	}
	meas := readTopic(t, b, "unauthenticated.VES_MEASUREMENT_OUTPUT", 4)
	ids := map[string]bool{}
	for _, r := range meas {
		ids[eventID(t, r.Value)] = true
	}
	for _, id := range []string{"m10", "m20", "m11", "m21"} {
		if !ids[id] {
			t.Errorf("measurement topic lacks %s: %v", id, ids)
		}
	}
}

func TestPublishDropsAFraction(t *testing.T) {
	t.Parallel()
	b := startBroker(t)
	p := newPublisher(t, b, Options{Mode: BeforeAck, Drop: 0.05, Seed: 7})
	const n = 2000
	for i := range n {
		if err := p.Publish([]byte(`{"event":`+body("heartbeat", fmt.Sprint(i))+`}`), false, nil); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if st.Dropped < n*3/100 || st.Dropped > n*7/100 || st.Published+st.Dropped != n {
		t.Fatalf("stats %+v: want about 5 %% of %d dropped and the rest published", st, n)
	}
	readTopic(t, b, "unauthenticated.SEC_HEARTBEAT_OUTPUT", int(st.Published))
}

// TestSeedZeroIsRandom: seed 0 picks a different seed, hence different
// drop choices, in every publisher and reports it; a given seed repeats
// the same choices.
func TestSeedZeroIsRandom(t *testing.T) {
	t.Parallel()
	choices := func(seed uint64) (uint64, string) {
		p, err := New(Options{Drop: 0.5, Seed: seed, Kafka: []kgo.Opt{kgo.SeedBrokers("127.0.0.1:1")}})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(context.Background())
		var b strings.Builder
		for range 64 {
			fmt.Fprint(&b, map[bool]int{false: 0, true: 1}[p.drop()])
		}
		return p.Seed(), b.String()
	}
	s1, c1 := choices(0)
	s2, c2 := choices(0)
	if s1 == 0 || s2 == 0 || s1 == s2 || c1 == c2 {
		t.Errorf("seed 0 twice: seeds %d and %d, choices %s and %s; want two random seeds", s1, s2, c1, c2)
	}
	r1, d1 := choices(s1)
	if r1 != s1 || d1 != c1 {
		t.Errorf("seed %d again: %d, %s; want the choices %s", s1, r1, d1, c1)
	}
}

func TestPublishStallsWhenTheBufferIsFull(t *testing.T) {
	t.Parallel()
	b := startBroker(t)
	// One slot, held by an event waiting out a long delay: the next
	// request finds the buffer full and fails after MaxBlock.
	p := newPublisher(t, b, Options{Mode: BeforeAck, Buffer: 1, Delay: time.Hour, MaxBlock: 20 * time.Millisecond})
	ev := []byte(`{"event":` + body("fault", "x") + `}`)
	if err := p.Publish(ev, false, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Publish(ev, false, nil); !errors.Is(err, ErrBufferFull) {
		t.Fatalf("second publish: %v, want ErrBufferFull", err)
	}
	quit := make(chan struct{})
	close(quit)
	if err := p.Publish(ev, false, quit); err == nil {
		t.Fatal("publish after quit succeeded with a full buffer")
	}
	if st := p.Stats(); st.Stalled != 2 || st.Buffered != 1 {
		t.Errorf("stats %+v, want 2 stalled and 1 buffered", st)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Close(ctx); err == nil {
		t.Error("Close with an event still buffered reported no loss")
	}
}

func TestPublishRejectsBadOptionsAndBodies(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{{Drop: 1.5}, {Drop: -0.1}, {Delay: -1}, {Buffer: -1}} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) succeeded", o)
		}
	}
	b := startBroker(t)
	p := newPublisher(t, b, Options{})
	for _, tt := range []struct {
		body  string
		batch bool
	}{{`{`, false}, {`{"event":[]}`, false}, {`{}`, false}, {`{"eventList":[]}`, true}, {`{"eventList":[1]}`, true}} {
		if err := p.Publish([]byte(tt.body), tt.batch, nil); err == nil {
			t.Errorf("body %s published", tt.body)
		}
	}
}
