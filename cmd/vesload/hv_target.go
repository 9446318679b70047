package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/hv"
	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/report/result"
)

// hvTargetFlags say how to watch the collector during an HV-VES run.
type hvTargetFlags struct {
	metrics string
	pids    []int32
	procs   []string
}

func addHVTargetFlags(fs *pflag.FlagSet) *hvTargetFlags {
	f := &hvTargetFlags{}
	fs.StringVar(&f.metrics, "target-metrics", "", "the collector's metrics `URL` (http://HOST:6060/monitoring/prometheus): hvves_* counters before and after the run give received, dropped and lost; process CPU and memory are sampled every second")
	fs.Int32SliceVar(&f.pids, "target-pid", nil, "sample a local collector process's CPU and memory every second (repeatable)")
	fs.StringArrayVar(&f.procs, "target-process", nil, "sample local processes with this name (repeatable)")
	return f
}

// hvWatch is the running observation of the collector.
type hvWatch struct {
	f       *hvTargetFlags
	client  *http.Client
	source  string
	lives   *hv.Lives // the collector's counters, scraped every second, across restarts
	livesMu sync.Mutex
	agg     *sample.Aggregate
	stopped chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

// start reads the collector's counters once (an unreachable
// endpoint stops the run before it starts) and starts the samplers.
func (f *hvTargetFlags) start(ctx context.Context, opts tlsconf.Options) (*hvWatch, error) {
	if f.metrics == "" && len(f.pids) == 0 && len(f.procs) == 0 {
		return nil, nil
	}
	w := &hvWatch{f: f, stopped: make(chan struct{})}
	var s sample.Sampler
	var err error
	switch {
	case f.metrics != "" && (len(f.pids) > 0 || len(f.procs) > 0):
		return nil, usagef("--target-metrics: choose either a local process (--target-pid/--target-process) or a metrics endpoint")
	case f.metrics != "":
		if err := w.preflight(ctx, opts); err != nil {
			return nil, err
		}
		if s, err = sample.NewMetrics(f.metrics, sample.HTTPOptions{TLS: tlsconf.Options{CAFile: opts.CAFile, Insecure: opts.Insecure}}); err != nil {
			return nil, usagef("--target-metrics: %v", err)
		}
	default:
		if s, err = sample.NewProcess(f.pids, f.procs); err != nil {
			return nil, usagef("--target-pid/--target-process: %v", err)
		}
	}
	w.agg = sample.NewAggregate(s.Source())
	w.wg.Go(func() { w.sample(s) })
	return w, nil
}

// preflight checks the metrics URL and takes the "before" counters.
func (w *hvWatch) preflight(ctx context.Context, opts tlsconf.Options) error {
	u, err := url.Parse(w.f.metrics)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("--target-metrics: want an http:// or https:// URL")
	}
	u.User = nil
	w.source = "metrics:" + u.String()
	var tcfg *tls.Config
	if u.Scheme == "https" {
		if tcfg, err = (tlsconf.Options{CAFile: opts.CAFile, Insecure: opts.Insecure}).Client(""); err != nil {
			return usageError{err}
		}
	}
	w.client = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: tcfg}}
	before, err := hv.ScrapeCollector(ctx, w.client, w.f.metrics)
	if err != nil {
		return fmt.Errorf("--target-metrics: %w", err)
	}
	w.lives = hv.NewLives(before)
	return nil
}

func (w *hvWatch) sample(s sample.Sampler) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-w.stopped:
			return
		case now := <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_, _ = w.agg.Take(ctx, s, now) // errors are counted in the aggregate
			if w.lives != nil {
				// Following the counters every second is what lets a restart
				// of the collector be seen and its lives added up.
				if c, err := hv.ScrapeCollector(ctx, w.client, w.f.metrics); err == nil {
					w.livesMu.Lock()
					w.lives.Observe(c)
					w.livesMu.Unlock()
				}
			}
			cancel()
		}
	}
}

// finish stops sampling and adds the collector's view to res: what its
// counters counted across its lives, once it has counted what was written
// or its count stopped rising (waiting up to settle).
func (w *hvWatch) finish(res *result.Result, written int64, settle time.Duration) {
	if w == nil {
		return
	}
	w.stop()
	if w.lives != nil {
		scrape := func(ctx context.Context) (hv.CollectorCounters, error) {
			return hv.ScrapeCollector(ctx, w.client, w.f.metrics)
		}
		res.Warnings = append(res.Warnings, hv.Settle(context.Background(), scrape, w.lives, written, settle, nil)...)
		before, after := w.lives.Span()
		res.HV.Receiver = hv.ReceiverView(before, after, written, w.source)
	}
	res.Target = w.agg.Target()
	if f := sample.FailedWarning(res.Target); f != "" {
		res.Warnings = append(res.Warnings, f)
	}
}

// stop ends the sampling; it is safe on a nil watch and more than once.
func (w *hvWatch) stop() {
	if w == nil {
		return
	}
	w.once.Do(func() { close(w.stopped) })
	w.wg.Wait()
}
