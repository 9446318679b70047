package delivery

import (
	"context"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
)

// chanSource hands the tally whatever the test sends, as a topic would.
type chanSource struct {
	recs   chan Record
	closed bool
}

func (s *chanSource) Preflight(context.Context) error { return nil }
func (s *chanSource) Close()                          { s.closed = true }
func (s *chanSource) Run(ctx context.Context, t *Tally, now func() time.Time) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case r := <-s.recs:
			t.Add(r, now())
		}
	}
}

func TestFollowerStopsWhenAllArrivedOrAfterTheGrace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		send      int
		expected  int64
		grace     time.Duration
		delivered int64
	}{
		{"all arrived", 3, 3, time.Hour, 3}, // returns at once, not after an hour
		{"grace ran out", 2, 3, 20 * time.Millisecond, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := &chanSource{recs: make(chan Record, 8)}
			tl := newTally(t, 10, 1)
			f := Follow(src, tl, "test", func() time.Time { return t0 })
			for i := range tt.send {
				src.recs <- jsonRecord("run-ab12-"+string(rune('0'+i)), 0, t0)
			}
			d, err := f.Finish(context.Background(), tt.expected, tt.grace)
			if err != nil {
				t.Fatal(err)
			}
			if d.Delivered != tt.delivered || d.Lost != tt.expected-tt.delivered || !src.closed {
				t.Errorf("delivered %d, lost %d, closed %v", d.Delivered, d.Lost, src.closed)
			}
			f.Stop() // safe after Finish
		})
	}
	t.Run("stopped waiting", func(t *testing.T) {
		t.Parallel()
		src := &chanSource{recs: make(chan Record, 1)}
		f := Follow(src, newTally(t, 10, 1), "test", time.Now)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		d, err := f.Finish(ctx, 5, time.Hour) // returns at once, not after an hour
		if err != nil || d.Lost != 5 {
			t.Fatalf("%+v, %v", d, err)
		}
	})
}

// TestFollowerWaitsForTheDeadlineWithoutATarget follows as `vesload
// consume` does when it is given no --expect: the events delivered do
// not end the wait, only the deadline does; with no due times the
// events are counted and no latency is made up.
func TestFollowerWaitsForTheDeadlineWithoutATarget(t *testing.T) {
	t.Parallel()
	src := &chanSource{recs: make(chan Record, 8)}
	tl, err := NewTally(Config{RunID: "run-ab12", Events: 10, Batch: 1, Start: t0})
	if err != nil {
		t.Fatal(err)
	}
	f := Follow(src, tl, "test", func() time.Time { return t0 })
	for i := range 3 {
		src.recs <- jsonRecord("run-ab12-"+string(rune('0'+i)), 0, t0)
	}
	deadline := make(chan time.Time)
	waited := make(chan struct{})
	go func() {
		f.Wait(context.Background(), -1, deadline)
		close(waited)
	}()
	// The source's goroutine adds them.
	waitfor.Until(t, 10*time.Second, "3 events delivered", func() bool { return tl.Delivered() >= 3 })
	select {
	case <-waited:
		t.Fatal("Wait returned before its deadline with no target")
	default:
	}
	deadline <- t0
	<-waited
	d, err := f.Close(0, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if d.Delivered != 3 || d.Lost != 0 || d.E2E.Count != 0 || d.Consumed.Count != 0 || d.GraceS != 1 {
		t.Errorf("delivered %d, lost %d, e2e %d, consumed %d, grace %v: want 3 delivered and no latency",
			d.Delivered, d.Lost, d.E2E.Count, d.Consumed.Count, d.GraceS)
	}
}
