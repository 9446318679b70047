package hv

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vesload/vesload/loadgen"
)

func TestShardProducers(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 3, 4, 7} {
		for _, count := range []int{1, 3, 4, 10} {
			seen := make([]int, n)
			for i := range count {
				c := Config{Producers: n, Shard: loadgen.Shard{Index: i, Count: count}}
				for _, p := range c.mine() {
					if p%count != i {
						t.Fatalf("%d producers, shard %d/%d runs producer %d", n, i, count, p)
					}
					seen[p]++
				}
			}
			for p, k := range seen {
				if k != 1 {
					t.Fatalf("%d producers in %d shards: producer %d runs %d times", n, count, p, k)
				}
			}
		}
	}
}

// stepClock is a clock whose sleeps move it to the time slept until.
type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time      { return c.now }
func (c *stepClock) NewSleeper() Sleeper { return c }
func (c *stepClock) SleepUntil(_ context.Context, t time.Time) error {
	if t.After(c.now) {
		c.now = t
	}
	return nil
}

func TestShardStart(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	gate := &loadgen.StartGate{At: at, Tolerance: time.Second}
	early := Config{Clock: &stepClock{now: at.Add(-3 * time.Second)}, Start: gate}
	start, offset, err := early.startAt(context.Background())
	if err != nil || !start.Equal(at) || offset != 0 {
		t.Errorf("early: start %v offset %v error %v, want the instant", start, offset, err)
	}
	late := Config{Clock: &stepClock{now: at.Add(2 * time.Second)}, Start: gate}
	var le *loadgen.LateError
	if _, _, err := late.startAt(context.Background()); !errors.As(err, &le) || le.Late != 2*time.Second {
		t.Errorf("late: error %v, want a LateError of 2s", err)
	}
}
