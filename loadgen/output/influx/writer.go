package influx

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/report/result"
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

// Writer turns each second of the timeline (the engine's Tally of the
// requests due in it) into the listener's points and writes them to
// InfluxDB from one goroutine. It adds nothing up itself: every figure
// is read from the second's Tally.
type Writer struct {
	cfg      Config
	endpoint string // the URL without credentials
	user     string
	pass     string

	mu    sync.Mutex
	start time.Time // second 0 of the timeline
	ended int64     // requests finished, from the live figures: endedT
	// closed counts the requests of the seconds written, which is ended
	// once the run is over.
	closed int64
	// rows holds the lines of the seconds closed since the last batch;
	// the next live second adds the internal row and queues them.
	rows     line
	points   int
	buf      line
	queue    *output.Queue[[]byte]
	url      string // the write URL with any password hidden, for Stats
	shut     bool
	begun    bool // Start was called
	pctNames []string
}

// FinalWait is how long the end of a run waits for InfluxDB to take what
// is still queued (output.FinalWait): a never-answering InfluxDB must not
// stretch a 5 s run by seconds, where one write may take Config.Timeout,
// 3 s. What it does not take in that time is counted as dropped.
const FinalWait = output.FinalWait

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
	w := &Writer{cfg: cfg, endpoint: endpoint, user: user, pass: pass, url: redacted(cfg.URL)}
	for _, p := range cfg.Percentiles {
		w.pctNames = append(w.pctNames, pctField(p))
	}
	w.queue = output.NewQueue(output.QueueConfig[[]byte]{Size: cfg.Queue, Write: w.post,
		Items: func(batch []byte) int64 { return int64(bytes.Count(batch, []byte{'\n'})) },
		Full:  "the write queue was full: InfluxDB is slower than one batch a second"})
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

// redacted hides the password of a write URL, in its user part or in
// InfluxDB's p= parameter (the project's one redaction policy).
func redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return redact.URL(u.String())
}

// Start writes the test's start annotation; start is second 0 of the
// timeline, from which each second's points are stamped. A writer never
// started writes nothing when closed: a run that did not begin leaves no
// trace.
func (w *Writer) Start(start time.Time) {
	w.mu.Lock()
	w.begun, w.start = true, start
	w.mu.Unlock()
	w.annotate("started")
}

// Timeline adds the points of second sec of the timeline, read from t,
// the Tally of the requests due in it: the ok, ko and all rows of the
// request label and of "all", and the error rows, stamped with the
// second's start. They go out with the next live second (Second). It
// reads t and keeps nothing of it.
func (w *Writer) Timeline(sec int64, t *result.Tally) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut {
		return
	}
	w.closed += t.OK + t.Errors
	ns := w.start.Add(time.Duration(sec) * time.Second).UnixNano()
	w.points += w.transaction(w.cfg.Label, t, ns)
	w.points += w.cumulated(t, ns)
}

// Second queues the seconds' points added since the last call with the
// internal row of the live figures: inFlight requests on a connection
// now and ended requests finished so far. When the queue is full the
// batch is dropped and counted. It never waits for InfluxDB.
func (w *Writer) Second(inFlight, ended int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut {
		return
	}
	w.ended = max(w.ended, ended)
	w.flush(inFlight)
}

// flush queues the rows held with the internal row; w.mu is held.
func (w *Writer) flush(inFlight int64) {
	w.buf.b = append(w.buf.b[:0], w.rows.b...)
	points := w.points + w.internal(inFlight, w.cfg.Now().UnixNano())
	w.rows.b, w.points = w.rows.b[:0], 0
	w.enqueue(points)
}

func (w *Writer) enqueue(points int) {
	if points == 0 {
		return
	}
	w.queue.Put(bytes.Clone(w.buf.b))
}

// distribution is what a row reads of a latency histogram (µs).
type distribution interface {
	TotalCount() int64
	Mean() float64
	Min() int64
	Max() int64
	ValueAtQuantile(q float64) int64
}

// distributions are a second's latency histograms, all, ok and ko,
// each nil when the Tally has none (a Tally without the split by
// outcome leaves the ok and ko rows without latency).
func distributions(t *result.Tally) (all, ok, ko distribution) {
	if t.Latency != nil {
		all = t.Latency
	}
	if t.OKLatency != nil {
		ok = t.OKLatency
	}
	if t.ErrorLatency != nil {
		ko = t.ErrorLatency
	}
	return all, ok, ko
}

// transaction writes the all, ok and ko rows and the error rows of one
// transaction, as addMetrics does.
func (w *Writer) transaction(name string, t *result.Tally, ns int64) int {
	n := 0
	all, ok, ko := distributions(t)
	for _, r := range []struct {
		statut string
		count  int64
		d      distribution
	}{{"all", t.OK + t.Errors, all}, {"ok", t.OK, ok}, {"ko", t.Errors, ko}} {
		if r.count == 0 {
			continue
		}
		w.head(name)
		w.rows.tag("statut", r.statut)
		w.rows.num("count", float64(r.count))
		w.stats3(r.d)
		w.rows.num("hit", float64(r.count))
		w.rows.num("sb", float64(t.BytesSent))
		w.rows.num("rb", float64(t.BytesReceived))
		w.pcts(r.d)
		w.rows.end(ns)
		n++
	}
	return n + w.errorRows(name, t, ns)
}

// errorKey is one error row: a response code and message.
type errorKey struct {
	code, message string
}

// errorRows writes one row per response code and message, in order.
func (w *Writer) errorRows(name string, t *result.Tally, ns int64) int {
	if len(t.Failures) == 0 {
		return 0
	}
	counts := make(map[errorKey]int64, len(t.Failures))
	for f, n := range t.Failures {
		counts[errorKey{code: responseCode(f.Class), message: responseMessage(f)}] += n
	}
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b errorKey) int {
		return cmp.Or(strings.Compare(a.code, b.code), strings.Compare(a.message, b.message))
	})
	for _, k := range keys {
		w.head(name)
		w.rows.tag("responseCode", k.code)
		w.rows.tag("responseMessage", k.message)
		w.rows.num("count", float64(counts[k]))
		w.rows.end(ns)
	}
	return len(keys)
}

// responseCode is the HTTP status of an http_<status> class, or the
// error class when there was no response (JMeter writes "Non HTTP
// response code: …" there).
func responseCode(class string) string {
	if code, ok := strings.CutPrefix(class, result.HTTPClassPrefix); ok {
		return code
	}
	return class
}

// responseMessage is the VES messageId of an error body (SVC2000, …) or
// the error class.
func responseMessage(f result.Failure) string {
	if f.MessageID != "" {
		return f.MessageID
	}
	return f.Class
}

// cumulated writes the transaction=all, statut=all row, whose avg, min
// and max are those of the successful requests (as addCumulatedMetrics).
func (w *Writer) cumulated(t *result.Tally, ns int64) int {
	count := t.OK + t.Errors
	if count == 0 {
		return 0
	}
	all, ok, _ := distributions(t)
	w.head("all")
	w.rows.tag("statut", "all")
	w.rows.num("count", float64(count))
	w.rows.num("countError", float64(t.Errors))
	w.stats3(ok)
	w.rows.num("hit", float64(count))
	w.rows.num("sb", float64(t.BytesSent))
	w.rows.num("rb", float64(t.BytesReceived))
	w.pcts(all)
	w.rows.end(ns)
	return 1
}

// internal writes the active-threads row into w.buf: requests in flight,
// started (finished or in flight) and ended (finished).
func (w *Writer) internal(inFlight int64, ns int64) int {
	ended := max(w.ended, w.closed)
	at := float64(inFlight)
	w.buf.start(w.cfg.Measurement)
	w.buf.tag("application", w.cfg.Application)
	w.buf.tag("shard", w.cfg.Shard)
	w.buf.tag("transaction", "internal")
	w.buf.num("minAT", at)
	w.buf.num("maxAT", at)
	w.buf.num("meanAT", at)
	w.buf.num("startedT", float64(ended+inFlight))
	w.buf.num("endedT", float64(ended))
	w.buf.end(ns)
	return 1
}

// stats3 writes avg, min and max in ms; a second without a latency (its
// requests were never sent) leaves them out, as JMeter leaves out a NaN.
func (w *Writer) stats3(d distribution) {
	if d == nil || d.TotalCount() == 0 {
		return
	}
	w.rows.num("avg", math.Round(d.Mean())/1000)
	w.rows.num("min", float64(d.Min())/1000)
	w.rows.num("max", float64(d.Max())/1000)
}

func (w *Writer) head(transaction string) {
	w.rows.start(w.cfg.Measurement)
	w.rows.tag("application", w.cfg.Application)
	w.rows.tag("shard", w.cfg.Shard)
	w.rows.tag("transaction", transaction)
}

func (w *Writer) pcts(d distribution) {
	if d == nil || d.TotalCount() == 0 {
		return
	}
	for i, p := range w.cfg.Percentiles {
		w.rows.num(w.pctNames[i], float64(d.ValueAtQuantile(p))/1000)
	}
}

// annotate queues an annotation in the events measurement.
func (w *Writer) annotate(what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.shut {
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

// Close writes the seconds not yet sent, with the internal row of
// inFlight requests, and the end annotation, waits up to wait for the
// queue to drain (output.Queue), and returns what was written. Closing
// again only returns the figures.
func (w *Writer) Close(inFlight int64, wait time.Duration) Stats {
	w.mu.Lock()
	if !w.shut {
		if w.begun {
			w.flush(inFlight)
			w.annotateLocked("ended")
		}
		w.shut = true
	}
	w.mu.Unlock()
	q := w.queue.Close(wait)
	return Stats{URL: w.url, Batches: q.Batches, Points: q.Items, Failed: q.Failed, Dropped: q.Dropped, LastError: q.LastError}
}

// post writes one batch; InfluxDB answers 204 when it took it.
func (w *Writer) post(ctx context.Context, batch []byte) error {
	ctx, cancel := context.WithTimeout(ctx, w.cfg.Timeout)
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
