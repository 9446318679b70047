package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/hv"
	"github.com/vesload/vesload/report/result"
)

// hvCounters follows the HV-VES collector's own counters through
// --target-metrics (hvves_messages_received_total, …): read once before
// the run (an unreachable endpoint stops the run before it starts), every
// second during it, so that a restart of the collector is seen and its
// lives added up, and until they settle after it. The collector's CPU and
// memory are the engine's target sampler's, as for a REST run.
type hvCounters struct {
	url     string
	client  *http.Client
	source  string
	mu      sync.Mutex
	lives   *hv.Lives
	stopped chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

// startHVCounters reads the counters at metricsURL before the run and
// starts following them; nil without a URL.
func startHVCounters(ctx context.Context, metricsURL string, opts tlsconf.Options) (*hvCounters, error) {
	if metricsURL == "" {
		return nil, nil
	}
	u, err := url.Parse(metricsURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usagef("--target-metrics: want an http:// or https:// URL")
	}
	u.User = nil
	c := &hvCounters{url: metricsURL, source: "metrics:" + u.String(), stopped: make(chan struct{})}
	var tcfg *tls.Config
	if u.Scheme == "https" {
		if tcfg, err = (tlsconf.Options{CAFile: opts.CAFile, Insecure: opts.Insecure}).Client(""); err != nil {
			return nil, usageError{err}
		}
	}
	c.client = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: tcfg}}
	before, err := hv.ScrapeCollector(ctx, c.client, metricsURL)
	if err != nil {
		return nil, fmt.Errorf("--target-metrics: %w", err)
	}
	c.lives = hv.NewLives(before)
	c.wg.Go(c.follow)
	return c, nil
}

// follow scrapes the counters once a second until stop.
func (c *hvCounters) follow() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-c.stopped:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if got, err := c.scrape(ctx); err == nil { // a failed scrape is retried next second
				c.mu.Lock()
				c.lives.Observe(got)
				c.mu.Unlock()
			}
			cancel()
		}
	}
}

func (c *hvCounters) scrape(ctx context.Context) (hv.CollectorCounters, error) {
	return hv.ScrapeCollector(ctx, c.client, c.url)
}

// finish stops following and adds the collector's view to res: what its
// counters counted across its lives, once it has counted what was written
// or its count stopped rising (waiting up to settle). It returns the
// warnings of the wait. A nil hvCounters does nothing.
func (c *hvCounters) finish(res *result.Result, written int64, settle time.Duration) []string {
	if c == nil {
		return nil
	}
	c.stop()
	warnings := hv.Settle(context.Background(), c.scrape, c.lives, written, settle, nil)
	before, after := c.lives.Span()
	res.HV.Receiver = hv.ReceiverView(before, after, written, c.source)
	return warnings
}

// stop ends the following; it is safe on a nil hvCounters and more than
// once.
func (c *hvCounters) stop() {
	if c == nil {
		return
	}
	c.once.Do(func() { close(c.stopped) })
	c.wg.Wait()
}
