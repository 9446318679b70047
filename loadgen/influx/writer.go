package influx

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vesload/vesload/internal/redact"
)

// Config says where and how to write.
type Config struct {
	// URL is InfluxDB 1.x's write endpoint with its database, as JMeter's
	// influxdbUrl: http://host:8086/write?db=jmeter. Credentials in it
	// (user:password@ or u=/p=) are sent as basic auth and never shown.
	URL string
	// Password, when set, replaces the URL's (from a file or the
	// environment, so it stays out of process listings).
	Password string
	// Application is the application tag of every point.
	Application string
	// Shard, for one shard of a run split across generators, is the
	// shard tag of every point (its index): the shards write the same
	// series at the same seconds, which InfluxDB would otherwise keep
	// only one of. Empty for a whole run, which has no shard tag.
	Shard string
	// Measurement defaults to "jmeter".
	Measurement string
	// Label is the transaction tag of the run's requests (the sampler
	// label); "all" always gets its own rows.
	Label string
	// Percentiles are the pct fields, by default 99, 95 and 90 as JMeter's.
	Percentiles []float64
	// Title starts the annotations' text ("<Title> started"); default
	// "vesload".
	Title string
	// Timeout bounds one write (JMeter's socket timeout is 3 s).
	Timeout time.Duration
	// Queue is how many seconds of points may wait for the writer before
	// a second is dropped (default 60).
	Queue int
	// Now is the clock that stamps points; time.Now by default.
	Now func() time.Time
	// Client sends the writes; a client with Timeout by default.
	Client *http.Client
}

// Stats is what the writer did, for the result: write errors are counted
// here, never fatal.
type Stats struct {
	// URL is the write URL with any password hidden.
	URL     string
	Batches int64 // batches written (2xx)
	Points  int64 // points in those batches
	Failed  int64 // batches InfluxDB refused or that could not be sent
	Dropped int64 // batches dropped because the queue was full
	// LastError is the reason of the last failure.
	LastError string
}

// Writer aggregates requests per second and writes each second's points
// to InfluxDB from one goroutine.
type Writer struct {
	cfg      Config
	endpoint string // the URL without credentials
	user     string
	pass     string

	mu      sync.Mutex
	label   *window
	all     *window
	started int64 // requests finished or in flight: JMeter's startedT
	ended   int64 // requests finished: endedT
	buf     line
	queue   chan []byte
	stats   Stats
	done    chan struct{}
	closed  bool
	begun   bool // Start was called
	// abandoned: Close stopped waiting; what is still queued is dropped.
	abandoned bool
	pctNames  []string
}

// New checks cfg and starts the writer goroutine. Bad configuration is
// the only error: InfluxDB is not contacted until the first second.
func New(cfg Config) (*Writer, error) {
	if err := Check(cfg); err != nil {
		return nil, err
	}
	endpoint, user, pass, _ := parseURL(cfg.URL)
	if cfg.Password != "" {
		pass = cfg.Password
	}
	if cfg.Measurement == "" {
		cfg.Measurement = "jmeter"
	}
	if cfg.Percentiles == nil {
		cfg.Percentiles = []float64{99, 95, 90}
	}
	if cfg.Title == "" {
		cfg.Title = "vesload"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 3 * time.Second
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 60
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: cfg.Timeout}
	}
	w := &Writer{
		cfg: cfg, endpoint: endpoint, user: user, pass: pass,
		label: newWindow(), all: newWindow(),
		queue: make(chan []byte, cfg.Queue), done: make(chan struct{}),
	}
	for _, p := range cfg.Percentiles {
		w.pctNames = append(w.pctNames, pctField(p))
	}
	w.stats.URL = redacted(cfg.URL)
	go w.run()
	return w, nil
}

// Check reports what is wrong with cfg's URL or percentiles, so that a
// command line can refuse them before a run starts.
func Check(cfg Config) error {
	if _, _, _, err := parseURL(cfg.URL); err != nil {
		return err
	}
	for _, p := range cfg.Percentiles {
		if !(p > 0 && p <= 100) {
			return fmt.Errorf("influx percentile %v: want a number in (0, 100]", p)
		}
	}
	return nil
}

// parseURL takes the credentials out of a write URL.
func parseURL(raw string) (endpoint, user, pass string, err error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", "", "", errors.New("influx url: not a URL (want http://HOST:PORT/write?db=NAME)")
	case u.Scheme != "http" && u.Scheme != "https":
		return "", "", "", fmt.Errorf("influx url %q: scheme must be http or https", redacted(raw))
	case u.Host == "":
		return "", "", "", fmt.Errorf("influx url %q: no host", redacted(raw))
	case u.Query().Get("db") == "":
		return "", "", "", fmt.Errorf("influx url %q: no database (want …/write?db=NAME)", redacted(raw))
	}
	if u.User != nil {
		user = u.User.Username()
		pass, _ = u.User.Password()
		u.User = nil
	}
	q := u.Query()
	if q.Has("u") || q.Has("p") {
		user, pass = q.Get("u"), q.Get("p")
		q.Del("u")
		q.Del("p")
		u.RawQuery = q.Encode()
	}
	return u.String(), user, pass, nil
}

// redacted hides the password of a write URL, in its user part (the
// project's one redaction policy) or in InfluxDB's p= parameter.
func redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	if q := u.Query(); q.Has("p") {
		q.Set("p", redact.Mask)
		u.RawQuery = q.Encode()
	}
	return redact.URL(u.String())
}

// Start writes the test's start annotation. A writer never started
// writes nothing when closed: a run that did not begin leaves no trace.
func (w *Writer) Start() {
	w.mu.Lock()
	w.begun = true
	w.mu.Unlock()
	w.annotate("started")
}

// Observe records one finished request: its outcome ("ok" or an error
// class), HTTP status (0 without one), the VES messageId of an error
// body, its latency and its bytes. It allocates nothing once every
// error row of the second has been seen.
func (w *Writer) Observe(outcome string, code int, messageID string, latency time.Duration, sent, recv int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended++
	for _, win := range [2]*window{w.label, w.all} {
		win.all.add(latency)
		win.sent += sent
		win.recv += recv
		if outcome == "ok" {
			win.ok.add(latency)
			continue
		}
		win.ko.add(latency)
		win.errors[errorKey{code: responseCode(code, outcome), message: responseMessage(outcome, messageID)}]++
	}
}

// responseCode is the HTTP status, or the error class when there was no
// response (JMeter writes "Non HTTP response code: …" there).
func responseCode(code int, outcome string) string {
	if code == 0 {
		return outcome
	}
	codes := httpCodes()
	return codes[min(max(code, 0), len(codes)-1)]
}

// httpCodes are the status codes as text, so that an error row does not
// allocate one. They are built on first use: only a run that writes to
// InfluxDB needs them.
var httpCodes = sync.OnceValue(func() []string {
	out := make([]string, 600)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
})

// responseMessage is the VES messageId of an error body (SVC2000, …) or
// the error class.
func responseMessage(outcome, messageID string) string {
	if messageID != "" {
		return messageID
	}
	return outcome
}

// Second ends the current second: its points, with inFlight requests on
// a connection now, go to the queue (or are dropped and counted when the
// queue is full). It never waits for InfluxDB.
func (w *Writer) Second(inFlight int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.flush(inFlight)
}

// flush builds the second's lines and queues them; w.mu is held.
func (w *Writer) flush(inFlight int64) {
	ns := w.cfg.Now().UnixNano()
	w.buf.b = w.buf.b[:0]
	points := w.rows(w.cfg.Label, w.label, ns)
	points += w.cumulated(ns)
	points += w.internal(inFlight, ns)
	w.label.reset()
	w.all.reset()
	w.enqueue(points)
}

func (w *Writer) enqueue(points int) {
	if points == 0 {
		return
	}
	batch := bytes.Clone(w.buf.b)
	select {
	case w.queue <- batch:
	default:
		w.stats.Dropped++
		w.stats.LastError = "the write queue was full: InfluxDB is slower than one batch a second"
	}
}

// rows writes the ok, ko and all rows and the error rows of one
// transaction, as addMetrics does.
func (w *Writer) rows(transaction string, win *window, ns int64) int {
	n := 0
	for _, r := range []struct {
		statut string
		s      *status
	}{{"all", &win.all}, {"ok", &win.ok}, {"ko", &win.ko}} {
		if r.s.count == 0 {
			continue
		}
		w.head(transaction)
		w.buf.tag("statut", r.statut)
		w.buf.num("count", float64(r.s.count))
		w.buf.num("avg", r.s.mean())
		w.buf.num("min", r.s.lo())
		w.buf.num("max", r.s.hi())
		w.buf.num("hit", float64(r.s.count))
		w.buf.num("sb", float64(win.sent))
		w.buf.num("rb", float64(win.recv))
		w.pcts(r.s)
		w.buf.end(ns)
		n++
	}
	keys := slices.SortedFunc(maps.Keys(win.errors), func(a, b errorKey) int {
		return cmp.Or(strings.Compare(a.code, b.code), strings.Compare(a.message, b.message))
	})
	for _, k := range keys {
		count := win.errors[k]
		w.head(transaction)
		w.buf.tag("responseCode", k.code)
		w.buf.tag("responseMessage", k.message)
		w.buf.num("count", float64(count))
		w.buf.end(ns)
		n++
	}
	return n
}

// cumulated writes the transaction=all, statut=all row, whose avg, min
// and max are those of the successful requests (as addCumulatedMetrics).
func (w *Writer) cumulated(ns int64) int {
	win := w.all
	if win.all.count == 0 {
		return 0
	}
	w.head("all")
	w.buf.tag("statut", "all")
	w.buf.num("count", float64(win.all.count))
	w.buf.num("countError", float64(win.ko.count))
	w.buf.num("avg", win.ok.mean())
	w.buf.num("min", win.ok.lo())
	w.buf.num("max", win.ok.hi())
	w.buf.num("hit", float64(win.all.count))
	w.buf.num("sb", float64(win.sent))
	w.buf.num("rb", float64(win.recv))
	w.pcts(&win.all)
	w.buf.end(ns)
	return 1
}

// internal writes the active-threads row: requests in flight.
func (w *Writer) internal(inFlight int64, ns int64) int {
	w.started = w.ended + inFlight
	at := float64(inFlight)
	w.head("internal")
	w.buf.num("minAT", at)
	w.buf.num("maxAT", at)
	w.buf.num("meanAT", at)
	w.buf.num("startedT", float64(w.started))
	w.buf.num("endedT", float64(w.ended))
	w.buf.end(ns)
	return 1
}

func (w *Writer) head(transaction string) {
	w.buf.start(w.cfg.Measurement)
	w.buf.tag("application", w.cfg.Application)
	w.buf.tag("shard", w.cfg.Shard)
	w.buf.tag("transaction", transaction)
}

func (w *Writer) pcts(s *status) {
	for i, p := range w.cfg.Percentiles {
		w.buf.num(w.pctNames[i], s.pct(p))
	}
}

// annotate queues an annotation in the events measurement.
func (w *Writer) annotate(what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.annotateLocked(what)
	}
}

func (w *Writer) annotateLocked(what string) {
	w.buf.b = w.buf.b[:0]
	w.buf.start("events")
	w.buf.tag("application", w.cfg.Application)
	w.buf.tag("shard", w.cfg.Shard)
	w.buf.tag("title", "vesload")
	w.buf.str("text", w.cfg.Title+" "+what)
	w.buf.end(w.cfg.Now().UnixNano())
	w.enqueue(1)
}

// Close writes the last second and the end annotation, waits up to
// wait for the queue to drain, and returns what was written. Points
// still queued after that are counted as dropped. Closing again only
// returns the figures.
func (w *Writer) Close(inFlight int64, wait time.Duration) Stats {
	w.mu.Lock()
	if !w.closed {
		if w.begun {
			w.flush(inFlight)
			w.annotateLocked("ended")
		}
		w.closed = true
		close(w.queue)
	}
	w.mu.Unlock()
	select {
	case <-w.done:
	case <-time.After(wait):
		w.mu.Lock()
		if !w.abandoned {
			w.abandoned = true
			w.stats.Dropped += int64(len(w.queue))
		}
		w.mu.Unlock()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

// run is the writer goroutine: one POST per batch, in order.
func (w *Writer) run() {
	defer close(w.done)
	for batch := range w.queue {
		w.mu.Lock()
		abandoned := w.abandoned
		w.mu.Unlock()
		if abandoned {
			continue // counted as dropped by Close
		}
		err := w.post(batch)
		w.mu.Lock()
		if err != nil {
			w.stats.Failed++
			w.stats.LastError = err.Error()
		} else {
			w.stats.Batches++
			w.stats.Points += int64(bytes.Count(batch, []byte{'\n'}))
		}
		w.mu.Unlock()
	}
}

// post writes one batch; InfluxDB answers 204 when it took it.
func (w *Writer) post(batch []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), w.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.endpoint, bytes.NewReader(batch))
	if err != nil {
		return fmt.Errorf("influx write: %w", err)
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	if w.user != "" || w.pass != "" {
		req.SetBasicAuth(w.user, w.pass)
	}
	resp, err := w.cfg.Client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is in Stats already, and may hold a query password
		}
		return fmt.Errorf("influx write: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("influx write: HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	return nil
}
