package hv

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/vesload/vesload/internal/clock"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/report/result"
)

// ErrMetricsURL is the error of a collector metrics endpoint that is not
// an http:// or https:// URL.
var ErrMetricsURL = errors.New("want an http:// or https:// URL")

// followEvery is how often a CollectorFollower scrapes during a run.
const followEvery = time.Second

// CollectorFollower follows an HV-VES collector's own counters
// (hvves_messages_received_total, …) through its metrics endpoint: read
// once before the run (Start: an unreachable endpoint stops the run before
// it begins), every second during it, so that a restart of the collector
// is seen and its lives added up (Lives), and after it until they settle
// (Finish, Settle). It exists so that every caller running HV-VES load
// gets the receiver's view of the same counters the same way.
type CollectorFollower struct {
	url    string
	source string
	client *http.Client
	clock  clock.Clock
	mu     sync.Mutex
	lives  *Lives
	cancel context.CancelFunc
	once   sync.Once
	wg     sync.WaitGroup
}

// NewCollectorFollower checks metricsURL and builds its client (TLS with
// opts' CA file and insecure choice for https); a nil clock is the wall
// clock. A URL that is not http(s) is ErrMetricsURL.
func NewCollectorFollower(metricsURL string, opts tlsconf.Options, clk clock.Clock) (*CollectorFollower, error) {
	u, err := url.Parse(metricsURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, ErrMetricsURL
	}
	u.User = nil
	var tcfg *tls.Config
	if u.Scheme == "https" {
		if tcfg, err = (tlsconf.Options{CAFile: opts.CAFile, Insecure: opts.Insecure}).Client(""); err != nil {
			return nil, err
		}
	}
	return &CollectorFollower{url: metricsURL, source: "metrics:" + u.String(), clock: clock.Default(clk),
		client: &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: tcfg}}}, nil
}

// Start reads the counters before the run and follows them until Stop
// or Finish.
func (c *CollectorFollower) Start(ctx context.Context) error {
	before, err := c.scrape(ctx)
	if err != nil {
		return err
	}
	c.lives = NewLives(before)
	var loop context.Context
	loop, c.cancel = context.WithCancel(context.Background())
	c.wg.Go(func() { c.follow(loop) })
	return nil
}

// follow scrapes the counters once a second until ctx ends; a failed
// scrape is retried the next second.
func (c *CollectorFollower) follow(ctx context.Context) {
	for clock.Sleep(ctx, c.clock, followEvery, nil) {
		sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if got, err := c.scrape(sctx); err == nil {
			c.mu.Lock()
			c.lives.Observe(got)
			c.mu.Unlock()
		}
		cancel()
	}
}

func (c *CollectorFollower) scrape(ctx context.Context) (CollectorCounters, error) {
	return ScrapeCollector(ctx, c.client, c.url)
}

// Finish stops following and sets res.HV.Receiver to what the counters
// counted across the collector's lives, once it has counted written or
// its count stopped rising (waiting up to settle). It returns the
// warnings of the wait. A nil follower does nothing.
func (c *CollectorFollower) Finish(res *result.Result, written int64, settle time.Duration) []string {
	if c == nil {
		return nil
	}
	c.Stop()
	warnings := Settle(context.Background(), c.scrape, c.lives, written, settle, c.clock)
	before, after := c.lives.Span()
	res.HV.Receiver = ReceiverView(before, after, written, c.source)
	return warnings
}

// Stop ends the following; it is safe on a nil follower, before Start
// and more than once.
func (c *CollectorFollower) Stop() {
	if c == nil {
		return
	}
	c.once.Do(func() {
		if c.cancel != nil {
			c.cancel()
		}
	})
	c.wg.Wait()
}
