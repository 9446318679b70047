package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/vesload/vesload/loadgen/hv"
	"github.com/vesload/vesload/loadgen/metrics"
)

// hvLive serves vesload's own metrics during an HV-VES run
// (--metrics-addr), under the same vesload_* names as a REST run, so the
// dashboard in deploy/ shows either: a message is a request whose outcome
// is ok or its failure cause, latency is due time → written and service
// time the time blocked in the write.
type hvLive struct {
	exp  *metrics.Exporter
	stop func(context.Context) error
	addr string // where it listens: a port 0 of --metrics-addr resolved
	done chan struct{}
	wg   chan struct{}
}

// startHVLive serves the metrics at addr; nil when addr is empty.
func startHVLive(addr string, cfg *hv.Config, live *hv.Live, stderr io.Writer, quiet bool) (*hvLive, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	l := &hvLive{exp: metrics.New(), addr: ln.Addr().String(), done: make(chan struct{}), wg: make(chan struct{})}
	l.stop = l.exp.ServeListener(ln)
	cfg.Observe = func(outcome string, latency, blocked time.Duration) {
		l.exp.ObserveRequest(outcome, 0, latency, blocked)
	}
	target := float64(cfg.Producers) / cfg.Interval.Seconds()
	go l.rates(target, live)
	if !quiet {
		fmt.Fprintf(stderr, "vesload hv: serving metrics at http://%s%s\n", l.addr, metrics.MetricsPath)
	}
	return l, nil
}

// rates sets the target and the last second's achieved rate every second.
func (l *hvLive) rates(target float64, live *hv.Live) {
	defer close(l.wg)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	last := live.Written.Load()
	l.exp.SetRates(target, 0)
	for {
		select {
		case <-l.done:
			return
		case <-t.C:
			n := live.Written.Load()
			l.exp.SetRates(target, float64(n-last))
			last = n
		}
	}
}

// close stops the metrics endpoint after a last scrape has had its chance.
func (l *hvLive) close() {
	if l == nil {
		return
	}
	close(l.done)
	<-l.wg
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = l.stop(ctx) // the run's result does not depend on the last scrape
}
