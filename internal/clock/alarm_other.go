//go:build !linux

package clock

import "time"

// newPoller has nothing to offer outside Linux: waits end in nanosleep.
func newPoller() poller { return nil }

// nanosleep ends a wait on a Go timer: the platform's own timer
// resolution is what the dispatcher gets there.
func nanosleep(d time.Duration) { time.Sleep(d) }
