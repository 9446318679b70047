package delivery

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vesload/vesload/internal/child"
	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/result"
)

// PreflightTimeout bounds a follower's first connection to its source.
const PreflightTimeout = 10 * time.Second

// followerReady bounds a follower's start: its preflight, and as long
// again for the process to come up.
const followerReady = 2 * PreflightTimeout

// followerStop is how long a follower may take to stop once asked,
// before it is killed.
const followerStop = 15 * time.Second

// Child is a run's delivery check in a process of its own: `vesload
// consume --parent` started from the same binary (internal/child), so
// that the generator's figures measure the generator alone. It is the
// engine's observer of the run: it tells the follower the start and the
// requests answered 2xx, and brings the delivery section back at the end.
// `vesload run` and `vesload hv` share it.
type Child struct {
	engine.NopObserver
	proc   *child.Process
	remote *Remote
	grace  time.Duration
	batch  int
	// noAnswers is a plan's NoAnswers: the run's requests get no answer
	// (HV-VES), so none is accepted and every message written is
	// expected.
	noAnswers bool
}

// Args are a follower's arguments: the consume command reading its plan
// from stdin (--parent), with the run's options; the group defaults to
// vesload-<run id>.
func (o Options) Args(runID string, grace time.Duration) []string {
	group := o.Group
	if group == "" {
		group = "vesload-" + runID
	}
	args := []string{"consume", o.URL, "--parent", "--grace", grace.String(), "--group", group, "--kafka-mechanism", o.Mechanism}
	for _, f := range []struct{ flag, v string }{{"--kafka-user", o.User}, {"--kafka-password-file", o.PasswordFile},
		{"--kafka-cacert", o.TLS.CAFile}, {"--kafka-cert", o.TLS.CertFile}, {"--kafka-key", o.TLS.KeyFile}} {
		if f.v != "" {
			args = append(args, f.flag, f.v)
		}
	}
	if o.TLS.Insecure {
		args = append(args, "--kafka-insecure")
	}
	return args
}

// StartChild starts the follower process of plan p and waits until it
// has connected to the source and reads it. Its error lines go to
// stderr when it stops. An error that is the options' fault is a usage
// error (package usage).
func StartChild(o Options, grace time.Duration, p Plan, stderr io.Writer) (*Child, error) {
	proc, err := child.Start("the delivery follower", o.Args(p.RunID, grace), stderr)
	if err != nil {
		return nil, fmt.Errorf("--consume: %w", err)
	}
	rm, err := Dial(proc.Stdin(), proc, p, followerReady)
	if err != nil {
		proc.Close(followerStop)
		return nil, err // the follower's bad option is a usage error already (receive)
	}
	return &Child{proc: proc, remote: rm, grace: grace, batch: max(p.Batch, 1), noAnswers: p.NoAnswers}, nil
}

// Begin tells the follower the instant the schedule's clock starts:
// request n is due at start + Due(n).
func (c *Child) Begin(t time.Time) { _ = c.remote.Begin(t) } // a follower gone shows at Finish

// OutputName implements engine.OutputNamer.
func (c *Child) OutputName() (name string, live bool) { return "--consume", false }

// ReadsTicks implements engine.TickReader: the follower reads the run's
// start and its requests, never the snapshots its outlet may skip.
func (c *Child) ReadsTicks() (updates, seconds bool) { return false, false }

// Request marks every accepted request, so that an event lost after a
// 2xx is told apart from one whose request failed. A run whose requests
// get no answer (HV-VES) accepts none: the follower only needs its start.
func (c *Child) Request(ev *engine.RequestEvent) {
	if ev.Outcome == "ok" && !c.noAnswers {
		c.remote.Accept(ev.Seq)
	}
}

// Expected is the events a REST run's sent requests carry, or, for a run
// whose requests get no answer (HV-VES), every message written.
func (c *Child) Expected(res *result.Result) int64 {
	if c.noAnswers {
		if res.HV == nil {
			return 0
		}
		return res.HV.Sent.Written
	}
	return res.Requests.Sent * int64(c.batch)
}

// Finish waits out the grace for the expected events still due (ctx
// ending stops the wait, not the result) and adds the delivery section
// and its warnings to res; the caller then closes the follower. note is
// told about the wait before it begins.
func (c *Child) Finish(ctx context.Context, res *result.Result, expected int64, note func(string)) error {
	d, err := c.remote.Finish(ctx, expected, c.grace+followerReady, func(delivered int64) {
		if delivered < expected && c.grace > 0 && ctx.Err() == nil { // a wait already ended is not announced
			note(fmt.Sprintf("waiting up to %v for %d events still to be delivered (Ctrl-C stops waiting)",
				c.grace, expected-delivered))
		}
	})
	if err != nil {
		return fmt.Errorf("--consume: %w", err)
	}
	res.Delivery = d
	res.Warnings = append(res.Warnings, Warnings(d, expected, c.grace)...)
	return nil
}

// Close ends the follower process; it is safe more than once.
func (c *Child) Close() { c.proc.Close(followerStop) }
