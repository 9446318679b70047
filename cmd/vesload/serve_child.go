package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/testserver/builtin"
)

// childFlags are the hidden flags of `vesload serve` run as the built-in
// emulator of a run (see emulator.go).
type childFlags struct {
	announceAddrs, stdinEOF, bounded bool
}

func addChildFlags(fs *pflag.FlagSet, c *childFlags) {
	fs.BoolVar(&c.announceAddrs, "announce", false, "print the listeners' addresses as one JSON line on stdout once all are up")
	fs.BoolVar(&c.stdinEOF, "stop-on-stdin-eof", false, "stop when stdin reaches end of file (the parent is gone)")
	fs.BoolVar(&c.bounded, "kafka-bounded", false, "delete records from the embedded broker once its consumer has fetched past them, or 10 s after they were produced")
	for _, name := range []string{"announce", "stop-on-stdin-eof", "kafka-bounded"} {
		_ = fs.MarkHidden(name) // the flags exist: cannot fail
	}
}

// watchStdin returns a context that also ends when stdin reaches end of
// file, with --stop-on-stdin-eof; the returned func releases it.
func (c *childFlags) watchStdin(ctx context.Context) (context.Context, func()) {
	if !c.stdinEOF {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	return ctx, cancel
}

// announce prints the addresses line of --announce, with this process's
// id.
func (c *childFlags) announce(w io.Writer, a builtin.Addrs) {
	if !c.announceAddrs {
		return
	}
	a.PID = os.Getpid()
	b, _ := json.Marshal(a) // strings and an int: cannot fail
	fmt.Fprintf(w, "%s\n", b)
}
