package main

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/dashboard"
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
	var ckpt loadgen.Observer // the checkpoint file keeps its period
	if s.ckpt != nil {
		ckpt = s.ckpt
	}
	srv.Attach(&s.plan.Config, ckpt)
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
