package delivery

import (
	"bufio"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/transport/hv"
	"github.com/vesload/vesload/report/result"
)

// TestPlanOffsetIsTheRunsSchedule: the due times a follower in another
// process computes from a plan are the run's own, for each kind of plan.
func TestPlanOffsetIsTheRunsSchedule(t *testing.T) {
	t.Parallel()
	segs := []engine.Segment{{From: 10, To: 50, Duration: 3 * time.Second}, {From: 50, To: 50, Duration: 2 * time.Second}}
	sched, err := engine.NewSchedule(segs...)
	if err != nil {
		t.Fatal(err)
	}
	hvc := hv.Config{Producers: 7, Interval: 333 * time.Millisecond, Messages: 20}
	tests := []struct {
		name   string
		plan   Plan
		events uint64
		want   func(n uint64) time.Duration
	}{
		{"segments, batch 3", Plan{Segments: segs, Batch: 3}, uint64(sched.Total()) * 3, func(n uint64) time.Duration {
			d, _ := sched.Due(int64(n / 3))
			return d
		}},
		// A constant rate is computed in floating point: within a
		// nanosecond of the exact due time.
		{"rate", Plan{Rate: 40}, 200, func(n uint64) time.Duration { return time.Duration(n) * 25 * time.Millisecond }},
		{"HV-VES producers", Plan{Sources: 7, Interval: hvc.Interval}, 140, func(n uint64) time.Duration {
			return hvc.Due(int(n%7), int(n/7))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			off, err := tt.plan.Offset()
			if err != nil || off == nil {
				t.Fatalf("Offset: none (%v)", err)
			}
			for n := range tt.events {
				if got, want := off(n), tt.want(n); got < want-1 || got > want+1 || (tt.plan.Rate == 0 && got != want) {
					t.Fatalf("event %d due at %v, the run has %v", n, got, want)
				}
			}
		})
	}
	if off, err := (Plan{}).Offset(); off != nil || err != nil {
		t.Errorf("a plan without due times gave due times (%v); want none", err)
	}
	if _, err := (Plan{Interval: time.Second}).Offset(); err == nil {
		t.Error("an interval without producers was accepted")
	}
}

// TestAcceptanceCrossesOver: the bitmap a run keeps reaches the
// follower's tally whole, so lost though accepted is exact.
func TestAcceptanceCrossesOver(t *testing.T) {
	t.Parallel()
	a := NewAcceptance(100, 2)
	for _, seq := range []int64{0, 7, 49, 50, -1} { // 50 and -1 are outside
		a.Accept(seq)
	}
	tally, err := NewTally(Config{RunID: "r", Events: 100, Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := tally.SetAccepted(a.Bytes()); err != nil {
		t.Fatal(err)
	}
	tally.Add(jsonRecord("r-14", 0, t0), t0) // request 7's first event
	d, err := tally.Result("src", 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.Accepted != 6 || d.LostThoughAccepted != 5 || d.DeliveredThoughRejected != 0 {
		t.Errorf("accepted %d, lost though accepted %d, delivered though rejected %d; want 6, 5, 0",
			d.Accepted, d.LostThoughAccepted, d.DeliveredThoughRejected)
	}
	if err := tally.SetAccepted(a.Bytes()[:8]); err == nil {
		t.Error("a bitmap of another size was accepted")
	}
}

// pipeLines reads lines from a pipe as internal/child's Process does.
type pipeLines struct{ r *bufio.Reader }

func (p pipeLines) ReadLine(time.Duration) ([]byte, error) {
	line, err := p.r.ReadBytes('\n')
	if err != nil {
		return nil, err
	}
	return line[:len(line)-1], nil
}

// TestRemoteAndServe: a run tells a follower behind a pair of pipes its
// plan, its start and its end, and gets the figures a follower in its
// own process would have counted, accepted requests included.
func TestRemoteAndServe(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		openErr   error
		usage     bool
		stop      bool
		delivered int64
	}{
		{name: "all delivered", delivered: 4},
		{name: "stopped while waiting", stop: true, delivered: 2},
		{name: "usage error", openErr: errors.New("--kafka-cacert: no such file"), usage: true},
		{name: "preflight fails", openErr: errors.New("preflight: refused")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			toChild, fromRun := io.Pipe()
			fromChild, toRun := io.Pipe()
			src := &chanSource{recs: make(chan Record)}
			served := make(chan error, 1)
			go func() {
				open := func(Config) (Source, string, error) { return src, "kafka://t", tt.openErr }
				served <- Serve(context.Background(), toChild, toRun, time.Hour, open, func(error) bool { return tt.usage })
				toRun.Close()
			}()
			rm, err := Dial(fromRun, pipeLines{bufio.NewReader(fromChild)}, Plan{RunID: "r", Events: 4, Rate: 100}, 0)
			if tt.openErr != nil {
				if err == nil || usage.Is(err) != tt.usage {
					t.Fatalf("Dial: %v, want the follower's error (usage %v)", err, tt.usage)
				}
				fromRun.Close()
				<-served
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := rm.Begin(start); err != nil {
				t.Fatal(err)
			}
			rm.Accept(0)
			rm.Accept(1)
			src.recs <- jsonRecord("r-1", 0, start)
			src.recs <- jsonRecord("r-2", 0, start)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var waited int64 = -1
			go func() {
				if !tt.stop {
					src.recs <- jsonRecord("r-0", 0, start)
					src.recs <- jsonRecord("r-3", 0, start)
				}
			}()
			if tt.stop {
				cancel()
			}
			d, err := rm.Finish(ctx, 4, 0, func(n int64) { waited = n })
			if err != nil {
				t.Fatal(err)
			}
			fromRun.Close()
			if err := <-served; err != nil {
				t.Errorf("Serve: %v", err)
			}
			if waited < 1 || d.Delivered != tt.delivered || d.Accepted != 2 || d.Expected != 4 || d.Source != "kafka://t" {
				t.Errorf("waited at %d, delivered %d, accepted %d, expected %d from %s; want ≥1, %d, 2, 4 from kafka://t",
					waited, d.Delivered, d.Accepted, d.Expected, d.Source, tt.delivered)
			}
			if tt.stop && d.LostThoughAccepted != 1 {
				t.Errorf("lost though accepted %d, want 1 (request 0 accepted, event r-0 never read)", d.LostThoughAccepted)
			}
		})
	}
}

// TestServeEndsWhenTheRunIsGone: the end of the run's pipe ends the
// follower, before or after the start.
func TestServeEndsWhenTheRunIsGone(t *testing.T) {
	t.Parallel()
	for _, started := range []bool{false, true} {
		toChild, fromRun := io.Pipe()
		fromChild, toRun := io.Pipe()
		src := &chanSource{recs: make(chan Record)}
		served := make(chan error, 1)
		go func() {
			open := func(Config) (Source, string, error) { return src, "kafka://t", nil }
			served <- Serve(context.Background(), toChild, toRun, time.Hour, open, func(error) bool { return false })
		}()
		rm, err := Dial(fromRun, pipeLines{bufio.NewReader(fromChild)}, Plan{RunID: "r", Events: 4, Rate: 100}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if started {
			_ = rm.Begin(time.Now())
		}
		fromRun.Close()
		if err := <-served; err == nil {
			t.Errorf("started %v: Serve returned no error when the run went away", started)
		}
		if !src.closed {
			t.Errorf("started %v: the source was left open", started)
		}
	}
}

// TestWarnings names the two delivery problems a run is warned about.
func TestWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		d        result.Delivery
		expected int64
		want     int
	}{
		{"clean", result.Delivery{Delivered: 5}, 5, 0},
		{"foreign only", result.Delivery{Foreign: 3}, 5, 1},
		{"foreign, nothing expected", result.Delivery{Foreign: 3}, 0, 0},
		{"lost though accepted", result.Delivery{Delivered: 4, LostThoughAccepted: 1}, 5, 1},
	}
	for _, tt := range tests {
		d := tt.d
		if got := Warnings(&d, tt.expected, time.Second); len(got) != tt.want {
			t.Errorf("%s: %q, want %d warnings", tt.name, got, tt.want)
		}
	}
}

// TestAcceptAllocatesNothing: the run's per-request observer stays off
// the allocator with the follower in another process.
func TestAcceptAllocatesNothing(t *testing.T) {
	rm := &Remote{accept: NewAcceptance(1<<20, 2)}
	seq := int64(0)
	if n := testing.AllocsPerRun(1000, func() { rm.Accept(seq); seq++ }); n != 0 {
		t.Errorf("Accept allocates %v times per call, want 0", n)
	}
}
