package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

// signalTarget is what the process's signals act on: the run's session
// (session.Session), whose phase decides what a signal does.
type signalTarget interface {
	Interrupt()
	HangUp(dropped func() int64)
}

// signals hands the process's signals to a run's session while it lives.
type signals struct {
	sigs chan os.Signal
	done chan struct{}
	// dump is the goroutines' stacks when a SIGQUIT came, printed once
	// the result is written; nil without one. Only the signal goroutine
	// writes it, before done is closed.
	dump []byte
}

// catchSignals hands the run's signals to s until release is called:
// SIGINT and SIGTERM are Interrupts; the first SIGHUP (the terminal hung
// up: a jump host's SSH session dropped) lets the run go on to its end
// with every file written and the terminal's output dropped and counted,
// and any signal after it is an Interrupt; SIGQUIT is an Interrupt whose
// goroutine dump waits until the result is written (release prints it),
// so that asking where a run is stuck never costs its result. Signals are
// caught until the command returns, so that one that comes while the
// outputs are written still ends with the summary, the result and exit
// 130, not the signal's default action.
//
// It takes over early's channel, on which SIGHUP has been caught since
// the set-up began (nil: from now on): one channel, so that no signal is
// delivered twice, to the set-up's catch and to the run's. A SIGHUP of the
// set-up is the first: the session hears of it at once; any other signal
// early caught is handled now.
func catchSignals(s signalTarget, early *earlyHangUp) *signals {
	if early == nil {
		early = catchEarlyHangUp()
	}
	signal.Notify(early.sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGQUIT) // before the take: none is lost
	dropped, pending := early.take()
	c := &signals{sigs: early.sigs, done: make(chan struct{})}
	hungUp := dropped != nil
	if hungUp {
		s.HangUp(dropped)
	}
	handle := func(sig os.Signal) {
		switch {
		case sig == syscall.SIGHUP && !hungUp:
			hungUp = true
			s.HangUp(dropTerminal())
		case sig == syscall.SIGQUIT && c.dump == nil:
			c.dump = stacks()
			s.Interrupt()
		default:
			s.Interrupt()
		}
	}
	go func() {
		defer close(c.done)
		for _, sig := range pending {
			handle(sig)
		}
		for sig := range c.sigs {
			handle(sig)
		}
	}()
	return c
}

// earlyHangUp catches a SIGHUP from a run's set-up on (the built-in
// emulator starting, the preflight, the shards' agreement), before its
// session exists to be told: the terminal is dropped as the session
// would drop it, and catchSignals takes its channel over.
type earlyHangUp struct {
	sigs     chan os.Signal
	handover chan struct{}
	done     chan struct{}
	taken    bool
	// Set by the goroutine before done is closed: the terminal's dropped
	// lines after a SIGHUP, and the signals it caught but does not
	// handle (a second SIGHUP; those catchSignals added before the take).
	dropped func() int64
	pending []os.Signal
}

// catchEarlyHangUp starts catching SIGHUP for a set-up.
func catchEarlyHangUp() *earlyHangUp {
	e := &earlyHangUp{sigs: make(chan os.Signal, 4), handover: make(chan struct{}), done: make(chan struct{})}
	signal.Notify(e.sigs, syscall.SIGHUP)
	go func() {
		defer close(e.done)
		for {
			select {
			case sig := <-e.sigs:
				if sig == syscall.SIGHUP && e.dropped == nil {
					e.dropped = dropTerminal()
				} else {
					e.pending = append(e.pending, sig)
				}
			case <-e.handover:
				return
			}
		}
	}()
	return e
}

// take ends the early catch, leaving its channel to the caller, and
// returns what it caught.
func (e *earlyHangUp) take() (dropped func() int64, pending []os.Signal) {
	e.taken = true
	close(e.handover)
	<-e.done
	return e.dropped, e.pending
}

// stop ends an early catch nobody took (the set-up failed); a taken one
// is the run's to stop (signals.release). A nil e caught nothing.
func (e *earlyHangUp) stop() {
	if e == nil || e.taken {
		return
	}
	e.taken = true
	signal.Stop(e.sigs)
	close(e.handover)
	<-e.done
}

// release stops catching signals and, after a SIGQUIT, prints the
// goroutines as they were when it came on w.
func (c *signals) release(w io.Writer) {
	signal.Stop(c.sigs) // no signal is sent on sigs once Stop returns
	close(c.sigs)
	<-c.done
	if c.dump != nil {
		fmt.Fprintf(w, "vesload: SIGQUIT: the run stopped and its result was written; its goroutines when the signal came:\n%s\n", c.dump)
	}
}

// stacks is every goroutine's stack, as the default action of SIGQUIT
// prints them.
func stacks() []byte {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 64<<20 {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}
