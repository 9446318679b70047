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
func catchSignals(s signalTarget) *signals {
	c := &signals{sigs: make(chan os.Signal, 4), done: make(chan struct{})}
	signal.Notify(c.sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	go func() {
		defer close(c.done)
		hungUp := false
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
