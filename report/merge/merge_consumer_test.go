package merge

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

// consumerResult is what `vesload consume` writes: no requests, the
// delivery section marked as the consumer's.
func consumerResult(t *testing.T, runID string, delivered int64) *result.Result {
	t.Helper()
	r := withDelivery(t, generator(t, 0, 1), delivered, 1, "CreateTime")
	r.Requests = result.Requests{}
	r.Config = result.RunConfig{RunID: runID}
	r.Delivery.Consumer = true
	r.Delivery.Expected, r.Delivery.Accepted, r.Delivery.Lost, r.Delivery.LostThoughAccepted = 0, 0, 0, 0
	return r
}

func TestMergeJoinsTheConsumer(t *testing.T) {
	t.Parallel()
	run := func(id string) *result.Result {
		r := generator(t, 0, 1)
		r.Config.RunID = id
		return r
	}
	a, b := run("r1"), run("r1")
	b.Started = b.Started.Add(time.Second) // another generator, not the same run twice
	sent := a.Requests.Sent + b.Requests.Sent
	ok := a.Requests.OK + b.Requests.OK
	tests := []struct {
		name string
		rs   []*result.Result
		err  string
	}{
		{"joined", []*result.Result{consumerResult(t, "r1", ok-7), a, b}, ""},
		{"another run", []*result.Result{a, consumerResult(t, "r2", 1)}, "followed run r2 but the generators ran r1"},
		{"alone", []*result.Result{consumerResult(t, "r1", 1)}, "merge it with the results of the run's generators"},
		{"two consumers", []*result.Result{a, consumerResult(t, "r1", 1), consumerResult(t, "r1", 1)}, "give one consumer per run"},
		{"beside a run's own delivery", []*result.Result{withDelivery(t, run("r1"), 5, 1, "CreateTime"), consumerResult(t, "r1", 1)}, "followed delivery itself"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, err := Shards(tt.rs, nil, Options{})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d := m.Delivery
			if d == nil || d.Expected != sent || d.Accepted != ok || d.Delivered != ok-7 || d.Lost != sent-ok+7 ||
				d.LostThoughAccepted != 7 || m.Requests.Sent != sent || m.Merged.Inputs != 3 {
				t.Fatalf("merged requests %+v inputs %+v, delivery %+v: want expected %d, accepted %d, delivered %d",
					m.Requests, m.Merged, d, sent, ok, ok-7)
			}
			if !containsWarning(m.Warnings, "never reached") {
				t.Errorf("warnings %q: want the events lost though accepted", m.Warnings)
			}
		})
	}
}

func containsWarning(ws []string, part string) bool {
	for _, w := range ws {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}

// TestMergeWarnsOfAnInterruptedConsumer: a consumer stopped early (a
// signal) leaves lost counting events that may still arrive; the merged
// result says so.
func TestMergeWarnsOfAnInterruptedConsumer(t *testing.T) {
	t.Parallel()
	g := generator(t, 0, 1)
	g.Config.RunID = "r1"
	c := consumerResult(t, "r1", 10)
	c.Interrupted = true
	m, err := Shards([]*result.Result{g, c}, []string{"g.json", "delivery.json"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !containsWarning(m.Warnings, "delivery.json was stopped before the run's end") {
		t.Errorf("warnings %q: want the consumer's early stop", m.Warnings)
	}
}

// TestMergeRefusesAMissingConsumer: shards that announce a lone consumer
// (run --with-consumer) do not merge without its result, unless told
// WithoutDelivery; with it, they do.
func TestMergeRefusesAMissingConsumer(t *testing.T) {
	t.Parallel()
	var rs []*result.Result
	for i := range 2 {
		r := shard(t, "r1", i, 2)
		r.Config.Consumer = true
		rs = append(rs, r)
	}
	_, err := Shards(rs, []string{"s0", "s1"}, Options{})
	if !errors.Is(err, ErrConsumerMissing) || !strings.Contains(err.Error(), "s0 (shard 0/2) announces a delivery consumer (vesload consume) whose result is not among the inputs") {
		t.Fatalf("%v, want the missing consumer named", err)
	}
	m, err := Shards(rs, nil, Options{WithoutDelivery: true})
	if err != nil || m.Delivery != nil {
		t.Fatalf("without delivery: %v, delivery %+v", err, m)
	}
	m, err = Shards(append(rs, consumerResult(t, "r1", 10)), nil, Options{})
	if err != nil || m.Delivery == nil || m.Delivery.Delivered != 10 {
		t.Fatalf("with the consumer: %v", err)
	}
}

// TestMergeJoinsAConsumerOfHV: HV-VES answers nothing, so a consumer
// joined with HV-VES shards expects every message written and counts
// none accepted.
func TestMergeJoinsAConsumerOfHV(t *testing.T) {
	t.Parallel()
	var rs []*result.Result
	for i := range 2 {
		r := shard(t, "hv1", i, 2)
		r.HV = hvResult(t).HV
		r.HV.Sent.Written = 100
		rs = append(rs, r)
	}
	m, err := Shards(append(rs, consumerResult(t, "hv1", 190)), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := m.Delivery; d == nil || d.Expected != 200 || d.Delivered != 190 || d.Lost != 10 || d.Accepted != 0 || !d.NoAnswers || d.LostThoughAccepted != 0 {
		t.Fatalf("delivery %+v: want 200 expected, 190 delivered, 10 lost, none accepted", d)
	}
}
