package testserver

import (
	"context"
	"time"
)

// Companion runs beside an emulator and is named in its start and
// closing lines: the Kafka generation (testserver/publish.Generation).
type Companion interface {
	Describe() string
	Summary() string
	Close() error
}

// RunOptions are what Run needs beside the emulator's Options.
type RunOptions struct {
	// Companion, when not nil, is described after the start line,
	// closed after the emulator and summed up after its summary. Run
	// closes it in every case, a failed start included.
	Companion Companion
	// Logf receives the start and closing lines; nil discards them.
	Logf func(format string, args ...any)
	// Ready, when not nil, is called with the emulator's URL once it
	// listens.
	Ready func(url string)
	// Now is the clock of the uptime in the closing line; nil is
	// time.Now.
	Now func() time.Time
}

// Run starts an emulator, serves until ctx ends, then closes it and its
// companion, logging a start line and a summary. It is the one
// lifecycle of `vesload serve` and of a run's built-in emulator (the
// same binary, started as a child). The error is the start's, or the
// first of the closes'.
func Run(ctx context.Context, o Options, r RunOptions) error {
	logf, now := r.Logf, r.Now
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if now == nil {
		now = time.Now
	}
	srv, err := Start(o)
	if err != nil {
		if r.Companion != nil {
			_ = r.Companion.Close() // the start's error is the one to report
		}
		return err
	}
	start := now()
	logf("VES collector emulator on %s/eventListener/v7 (%s)", srv.URL(), o.Describe())
	if r.Companion != nil {
		logf("%s", r.Companion.Describe())
	}
	if r.Ready != nil {
		r.Ready(srv.URL())
	}
	<-ctx.Done()
	err = srv.Close()
	logf("%s", srv.Stats().Summary(now().Sub(start)))
	if r.Companion != nil {
		if cerr := r.Companion.Close(); cerr != nil && err == nil {
			err = cerr
		}
		logf("%s", r.Companion.Summary())
	}
	return err
}
