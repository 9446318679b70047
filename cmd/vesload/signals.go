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
// A SIGHUP that came during the set-up, before the session existed
// (early), is the first: the session hears of it at once.
func catchSignals(s signalTarget, early *earlyHangUp) *signals {
	c := &signals{sigs: make(chan os.Signal, 4), done: make(chan struct{})}
	signal.Notify(c.sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	dropped := early.stop() // after Notify: no SIGHUP falls between the two
	hungUp := dropped != nil
	if hungUp {
		s.HangUp(dropped)
	}
	go func() {
		defer close(c.done)
		for sig := range c.sigs {
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
	}()
	return c
}

// earlyHangUp catches a SIGHUP from a run's set-up on (the built-in
// emulator starting, the preflight, the shards' agreement), before its
// session exists to be told: the terminal is dropped as the session
// would drop it, and the session hears of it when it starts catching
// signals itself.
type earlyHangUp struct {
	sigs    chan os.Signal
	done    chan struct{}
	dropped func() int64 // set by the goroutine before done is closed
}

// catchEarlyHangUp starts catching SIGHUP for a set-up.
func catchEarlyHangUp() *earlyHangUp {
	e := &earlyHangUp{sigs: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(e.sigs, syscall.SIGHUP)
	go func() {
		defer close(e.done)
		for range e.sigs {
			if e.dropped == nil {
				e.dropped = dropTerminal()
			}
		}
	}()
	return e
}

// stop ends the early catch and returns the terminal's dropped lines when
// a SIGHUP came, nil otherwise. It may be called more than once; a nil e
// caught nothing.
func (e *earlyHangUp) stop() (dropped func() int64) {
	if e == nil {
		return nil
	}
	select {
	case <-e.done:
	default:
		signal.Stop(e.sigs) // no signal is sent on sigs once Stop returns
		close(e.sigs)
		<-e.done
	}
	return e.dropped
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
