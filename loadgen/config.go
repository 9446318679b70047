package loadgen

import (
	"fmt"
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"net"
	"net/url"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Body renders the payload of one request. Request seq (0-based) is due
// at due. Implementations are called from many goroutines at once and
// append to a reused buffer, so the hot path need not allocate. The
// built-in VES events and compiled templates of package ves satisfy it.
type Body interface {
	AppendBody(dst []byte, seq uint64, due time.Time) []byte
}

// Header is one extra request header.
type Header struct {
	Name, Value string
}

// TLS configures certificate checks and client certificates for https
// targets. Verification is on unless Insecure is set.
type TLS struct {
	CAFile   string
	CertFile string
	KeyFile  string
	Insecure bool
}

// Config is everything one run needs. The command line and profiles build
// it; the engine reads it and never changes it.
type Config struct {
	// URL is the full request URL (for batches, the eventBatch path).
	URL      string
	Method   string
	Headers  []Header
	User     string
	Password string // never copied into results or logs
	TLS      TLS

	// Schedule is the open-model load; Closed replaces it for a
	// closed-model concurrency ramp. Exactly one is set.
	Schedule *Schedule
	Closed   *Closed
	Body     Body
	// Mix, when set, replaces URL and Body with a weighted mix of
	// requests to the same target; URL still names the target.
	Mix []Request

	Pool      int           // maximum connections (and requests in flight)
	PoolWait  time.Duration // how long a due request may wait for a free connection
	Timeout   time.Duration // per request, and the drain limit at the end
	KeepAlive bool

	NoPreflight bool

	// Start, when set, holds the clock start back until an instant shared
	// by the shards of one run; a shard later than its tolerance does not
	// run. Clock is the start gate's time source (nil: the system clock).
	Start *StartGate
	Clock Clock

	// CheckpointEvery is how often Hooks.Checkpoint is called (whole
	// seconds; 0: never).
	CheckpointEvery time.Duration

	// UserAgent names the generator in requests.
	UserAgent string

	// Dial, when set, opens connections instead of TCP to the URL's host
	// (in-memory listeners in benchmarks, Unix sockets). Preflight then
	// uses it too.
	Dial func(addr string) (net.Conn, error)

	// Hooks receive what the engine observes; all are optional.
	Hooks Hooks
}

// Hooks let callers watch a run without the engine knowing about
// terminals, Prometheus or files. They are called with the recorder's
// lock held, never two at once, so implementations need no locking among
// themselves; they must be quick, since requests wait to be recorded.
type Hooks struct {
	// Start is called once with the instant the schedule's clock starts,
	// before the first request: request n is due at start + Due(n).
	Start func(time.Time)
	// Second is called once a second with the live figures.
	Second func(Progress)
	// Request is called for every finished request, pool_exhausted ones
	// included, on the goroutine that finished it.
	Request func(RequestEvent)
	// Interval is called at the end of every second with the latency
	// histogram (µs) of the requests that finished in it. The histogram
	// is reset afterwards: read it, do not keep it.
	Interval func(start, end time.Time, latency *hdrhistogram.Histogram)
	// Checkpoint receives a snapshot of the result every CheckpointEvery,
	// marked interrupted, so that a crash loses at most one interval. It
	// must not block: write the file in another goroutine.
	Checkpoint func(*result.Result)
	// Samplers are polled once a second in their own goroutine.
	Target    Sampler
	Generator Sampler
}

// RequestEvent is what happened to one request.
type RequestEvent struct {
	Seq     int64
	Due     time.Time
	Latency time.Duration // from the due time
	Service time.Duration // from the hand-over to a connection; 0 when not sent
	// Outcome is "ok" or the error class (http_503, timeout, pool_exhausted, …).
	Outcome   string
	Code      int // HTTP status, 0 when there was none
	BytesSent int64
	BytesRecv int64
	MessageID string // of a VES error body
}

// Progress is the live view of a run, once a second.
type Progress struct {
	Elapsed       time.Duration
	Total         time.Duration
	Scheduled     int64
	Sent          int64
	OK            int64
	Errors        int64
	PoolExhausted int64
	InFlight      int64
	// RPS is the rate sent during the last second.
	RPS float64
	// TargetRPS is the scheduled rate during the last second.
	TargetRPS float64
	P50, P99  time.Duration // of the requests finished in the last second
	// LagMax is the largest dispatch lag during the last second; LagP50
	// and LagP99 summarise the last whole second of dispatches.
	LagMax, LagP50, LagP99 time.Duration
	// GeneratorCPU is vesload's own CPU use in the last second, 100 = one core.
	GeneratorCPU float64
	// Target and Generator are the latest samples, nil when not sampled.
	Target    *Reading
	Generator *Reading
	// Last is the timeline entry of the second that just ended.
	Last result.Second
}

func (c *Config) validate() error {
	u, err := url.Parse(c.URL)
	switch {
	case err != nil:
		return fmt.Errorf("url %q: %w", c.URL, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("url %q: scheme must be http or https", c.URL)
	case u.Host == "":
		return fmt.Errorf("url %q: no host", c.URL)
	case (c.Schedule == nil) == (c.Closed == nil):
		return fmt.Errorf("want either an open-model schedule or a closed-model ramp")
	case c.Body == nil && len(c.Mix) == 0:
		return fmt.Errorf("no body")
	case c.Pool < 1:
		return fmt.Errorf("pool %d: must be at least 1", c.Pool)
	case c.PoolWait < 0:
		return fmt.Errorf("pool wait %v: must not be negative", c.PoolWait)
	case c.Timeout <= 0:
		return fmt.Errorf("timeout %v: must be positive", c.Timeout)
	case c.Closed != nil:
		return c.Closed.validate(c.Pool)
	}
	return nil
}
