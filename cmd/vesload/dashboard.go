package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/dashboard"
	"github.com/vesload/vesload/report/result"
)

// dashboardOptions are the flags of the live page.
type dashboardOptions struct {
	addr   string
	linger time.Duration
}

func addDashboardFlags(fs *pflag.FlagSet, o *dashboardOptions) {
	fs.StringVar(&o.addr, "dashboard", "", "serve the report page live during the run at `ADDR` (e.g. 127.0.0.1:5665, :0 for any port; without a host only on loopback)")
	fs.DurationVar(&o.linger, "dashboard-linger", 0, "keep serving the live page this long after the run has ended")
}

// startDashboard serves the live page when --dashboard asks for it: the
// server takes a snapshot every second, and the checkpoint file, if
// any, still gets one every --checkpoint.
func (s *runSetup) startDashboard() error {
	d := s.o.dash
	if d.addr == "" {
		return nil
	}
	if d.linger < 0 {
		return usagef("--dashboard-linger %v: want 0 or a positive duration", d.linger)
	}
	srv, err := dashboard.Listen(dashboard.Options{Addr: d.addr, Gates: s.gates, Meta: s.fillMeta})
	if err != nil {
		return usageError{err}
	}
	s.dash = srv
	cfg := &s.plan.Config
	// The dashboard sees each snapshot before the checkpoint file, which
	// completes the snapshot in place.
	at := len(cfg.Observers)
	if s.ckpt != nil {
		if i := slices.Index(cfg.Observers, loadgen.Observer(s.ckpt)); i >= 0 {
			cfg.Observers[i] = &everyCheckpoint{Observer: s.ckpt, every: cfg.CheckpointEvery}
			at = i
		}
	}
	cfg.Observers = slices.Insert(cfg.Observers, at, loadgen.Observer(srv))
	cfg.CheckpointEvery = time.Second
	s.closers = append(s.closers, func() {
		if d.linger > 0 {
			s.prog.note(fmt.Sprintf("serving the report at %s for %v more (Ctrl-C to stop)", srv.URL(), d.linger))
			time.Sleep(d.linger)
		}
		_ = srv.Close()
	})
	s.prog.note("serving the live report at " + srv.URL())
	return nil
}

// finishDashboard shows the final result on the live page; res gets a
// warning when updates were dropped.
func (s *runSetup) finishDashboard(res *result.Result) {
	if s.dash != nil {
		s.dash.Finish(res)
	}
}

// everyCheckpoint passes on a checkpoint only every so often: the
// checkpoint file keeps its --checkpoint period while the engine
// snapshots every second for the dashboard.
type everyCheckpoint struct {
	loadgen.Observer
	every time.Duration
	next  time.Duration
}

// Checkpoint passes r on once its time into the run reaches the next
// period.
func (e *everyCheckpoint) Checkpoint(r *result.Result) {
	at := r.Ended.Sub(r.Started).Round(time.Second)
	if e.next == 0 {
		e.next = e.every
	}
	if at < e.next {
		return
	}
	e.next = (at/e.every + 1) * e.every
	e.Observer.Checkpoint(r)
}
