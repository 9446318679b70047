package main

import (
	"time"

	"github.com/spf13/pflag"
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
