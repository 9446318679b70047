// Package clock is vesload's one time source, passed in to whatever
// waits or reads the time: the engine's dispatcher, pool waiter, ticker
// and start gate, the start agreement of sharded runs and the HV-VES
// transport. Those parts read no other time, so that a test can run
// them in a testing/synctest bubble, where the Go runtime's time is
// virtual (docs/ARCHITECTURE.md, "Clock").
//
// There are two implementations. System is the wall clock, with the
// dispatcher's precise wait (a timerfd in the runtime's network poller on
// Linux). Runtime is the same time read through the Go runtime alone:
// its alarms wait on Go timers, which a synctest bubble advances, where a
// timerfd or a nanosleep would wait in real time.
package clock

import (
	"context"
	"time"
)

// Clock is a time source. It reads the time, arms timers, and makes the
// alarms a dispatcher wakes at due times with; one interface for all
// three, so that whoever is handed a Clock hands on the same time.
type Clock interface {
	// Now is the current time, as time.Now.
	Now() time.Time
	// NewTimer is a timer that fires once after d, as time.NewTimer.
	NewTimer(d time.Duration) Timer
	// NewAlarm returns an alarm for one goroutine that waits for due
	// times as precisely as the clock can. It holds resources (a timerfd
	// on Linux): Close it.
	NewAlarm() Alarm
}

// Timer is a Clock's timer: time.Timer's methods, with its channel
// behind a method so that an implementation may be other than
// time.Timer.
type Timer interface {
	// C fires once the timer's duration has passed.
	C() <-chan time.Time
	// Reset makes the timer fire after d from now.
	Reset(d time.Duration) bool
	// Stop stops the timer; it reports whether that stopped it firing.
	Stop() bool
}

// Alarm wakes one goroutine at due times. It is reused wait after wait,
// so that a wait allocates nothing.
type Alarm interface {
	// Until blocks until due. It returns false when ctx is done or abort
	// is closed first (a nil abort never closes).
	Until(ctx context.Context, due time.Time, abort <-chan struct{}) bool
	// Close releases what the alarm holds.
	Close()
}

// System is the wall clock: time.Now, Go timers, and alarms that end
// their waits in a timerfd registered with the runtime's network poller
// on Linux (nanosleep elsewhere), within tens of microseconds of the due
// time. It is the clock of every run; tests in a synctest bubble use
// Runtime, since neither a timerfd nor a nanosleep is virtual.
type System struct{}

// Now is time.Now.
func (System) Now() time.Time { return time.Now() }

// NewTimer is time.NewTimer.
func (System) NewTimer(d time.Duration) Timer { return goTimer{time.NewTimer(d)} }

// NewAlarm returns the precise alarm: a timerfd where the platform has
// one, else a Go timer ended in nanosleep.
func (System) NewAlarm() Alarm { return newAlarm(newPoller(), true) }

// Runtime is the time the Go runtime keeps: time.Now and Go timers only,
// its alarms included. Inside a testing/synctest bubble all of it is
// virtual, so the engine's own tests run a schedule of minutes in
// microseconds, deterministically. Outside one it is the wall clock with
// a Go timer's precision (the runtime's poller sleeps whole
// milliseconds).
type Runtime struct{}

// Now is time.Now.
func (Runtime) Now() time.Time { return time.Now() }

// NewTimer is time.NewTimer.
func (Runtime) NewTimer(d time.Duration) Timer { return goTimer{time.NewTimer(d)} }

// NewAlarm returns an alarm that waits on a Go timer alone.
func (Runtime) NewAlarm() Alarm { return newAlarm(nil, false) }

// goTimer is a time.Timer as a Timer.
type goTimer struct{ *time.Timer }

// C is the timer's channel.
func (t goTimer) C() <-chan time.Time { return t.Timer.C }

// Sleep waits d on one of c's timers. It returns false when ctx is done
// or stop is closed first (a nil stop never closes). A d of zero or less
// returns at once, true unless ctx is already done.
func Sleep(ctx context.Context, c Clock, d time.Duration, stop <-chan struct{}) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return true
	case <-ctx.Done():
	case <-stop:
	}
	return false
}

// Default returns c, or System when c is nil: what a zero option means
// wherever a Clock is an option.
func Default(c Clock) Clock {
	if c == nil {
		return System{}
	}
	return c
}
