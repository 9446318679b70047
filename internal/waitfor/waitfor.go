// Package waitfor is how tests wait for something another goroutine, a
// real server or a child process makes true: the condition is checked
// every period until it holds or a limit passes, so that a test waits as
// long as the machine needs and no longer, where a fixed sleep is either
// too short on a loaded machine or wasted on an idle one. Logic driven by
// Go timers needs none of it: its tests run in a testing/synctest bubble
// (docs/ARCHITECTURE.md, "Clock").
package waitfor

import (
	"context"
	"testing"
	"time"
)

// Period is how often Until and True check their condition.
const Period = 10 * time.Millisecond

// True checks cond every period until it holds (true) or limit has
// passed (false). cond is checked once at once, and once more at the
// limit, so a condition that holds by then is never missed.
func True(limit, period time.Duration, cond func() bool) bool {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	return Ctx(ctx, period, cond)
}

// Ctx checks cond every period until it holds (true) or ctx is done
// (false, after one last check).
func Ctx(ctx context.Context, period time.Duration, cond func() bool) bool {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for !cond() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			return cond()
		}
	}
	return true
}

// Until checks cond every Period until it holds, and fails the test,
// saying what it waited for, when limit passes first.
func Until(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	if !True(limit, Period, cond) {
		t.Fatalf("waited %v for %s", limit, what)
	}
}
