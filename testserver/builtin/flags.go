package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// Child is the emulator's side of the protocol Args starts it with: the
// hidden flags of `vesload serve` that only the built-in emulator is
// given. It lives beside Args and Addrs so that what the run passes and
// what the child understands are one piece, tested together.
type Child struct {
	// Announce prints the listeners' addresses as one JSON line (Addrs)
	// once all are up (--announce).
	Announce bool
	// StopOnStdinEOF stops the emulator when stdin reaches end of file,
	// that is when the run that started it is gone (--stop-on-stdin-eof).
	StopOnStdinEOF bool
	// Bounded keeps the embedded broker's backlog bounded
	// (--kafka-bounded, publish.BrokerOptions.Bounded).
	Bounded bool
}

// childFlags are the names of Child's flags, in declaration order.
var childFlags = []string{"announce", "stop-on-stdin-eof", "kafka-bounded"}

// Declare adds the child's flags to the serve command's flag set,
// hidden: a user never types them.
func (c *Child) Declare(fs *pflag.FlagSet) {
	fs.BoolVar(&c.Announce, "announce", false, "print the listeners' addresses as one JSON line on stdout once all are up")
	fs.BoolVar(&c.StopOnStdinEOF, "stop-on-stdin-eof", false, "stop when stdin reaches end of file (the parent is gone)")
	fs.BoolVar(&c.Bounded, "kafka-bounded", false, "delete records from the embedded broker once its consumer has fetched past them, or 10 s after they were produced")
	for _, name := range childFlags {
		_ = fs.MarkHidden(name) // the flags exist: cannot fail
	}
}

// Watch returns a context that also ends when stdin reaches end of file,
// with StopOnStdinEOF; the returned func releases it. Without the flag
// stdin is not read at all.
func (c Child) Watch(ctx context.Context, stdin io.Reader) (context.Context, func()) {
	if !c.StopOnStdinEOF {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		_, _ = io.Copy(io.Discard, stdin)
		cancel()
	}()
	return ctx, cancel
}

// Print writes the addresses line of Announce, with the emulator
// process's id pid, which Start reads; nothing without Announce. A
// failed write means the run is gone, which StopOnStdinEOF notices.
func (c Child) Print(w io.Writer, a Addrs, pid int) {
	if !c.Announce {
		return
	}
	a.PID = pid
	b, _ := json.Marshal(a) // strings and numbers: cannot fail
	fmt.Fprintf(w, "%s\n", b)
}
