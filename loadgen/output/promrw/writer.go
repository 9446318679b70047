package promrw

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/exp/api/remote"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/output"
	"github.com/vesload/vesload/report/result"
)

// Config says where and how to push.
type Config struct {
	// URL is the remote write endpoint, such as
	// http://prometheus:9090/api/v1/write. It holds no credentials:
	// they would show in process listings and logs.
	URL string
	// User and Password are basic auth; Bearer, a token, is the other
	// choice. Neither is ever shown.
	User, Password, Bearer string
	// TLS is the client's TLS for an https URL.
	TLS tlsconf.Options
	// Job is the job label of every series (default "vesload").
	Job string
	// Shard is the shard label (its index) of one shard of a run split
	// across generators, RunID the run_id label; empty for none.
	Shard, RunID string
	// Timeout bounds one batch's write, retries included (default 5 s).
	Timeout time.Duration
	// Queue is how many batches (one a second) may wait for the writer
	// before one is dropped (default 60).
	Queue int
	// Now stamps the live figures; time.Now by default.
	Now func() time.Time
}

// Stats is what the writer did, for the result: write errors are
// counted here, never fatal.
type Stats struct {
	URL     string // credentials hidden
	Batches int64  // batches the endpoint took (2xx)
	Samples int64  // samples in those batches
	Failed  int64  // batches refused or that could not be sent
	Dropped int64  // batches a full queue or the end of the run left out
	// LastError is the reason of the last failure.
	LastError string
}

// quantiles are the latency quantiles of each second.
var quantiles = [...]struct {
	label string
	q     float64
}{{"0.5", 50}, {"0.9", 90}, {"0.95", 95}, {"0.99", 99}, {"1", 100}}

// Writer turns each second of the timeline into samples and pushes them
// from one goroutine. It adds up only the cumulative totals of the
// counters; every other figure is read from the second's Tally.
type Writer struct {
	cfg  Config
	api  *remote.API
	tr   *http.Transport // its idle connections close with the writer
	base []label         // job, run_id, shard

	mu    sync.Mutex
	start time.Time
	begun bool
	// totals are the counters so far, by outcome ("ok" or a class).
	totals     map[string]int64
	sent, recv int64
	// lastLive is the stamp of the last in-flight sample: the next is
	// later, as a series' samples must be (the end of the run may flush
	// within the millisecond of the last second).
	lastLive int64
	// batch holds the series of the seconds closed since the last
	// Second; index finds a series in it by name and label.
	batch []series
	index map[string]int
	queue *output.Queue[[]series]
	url   string // the write URL with credentials hidden, for Stats
	shut  bool
}

// New checks cfg and starts the writer goroutine. Bad configuration is
// the only error: the endpoint is not contacted until the first second.
func New(cfg Config) (*Writer, error) {
	if err := checkURL(cfg.URL); err != nil {
		return nil, err
	}
	if cfg.Password != "" && cfg.Bearer != "" || cfg.User != "" && cfg.Bearer != "" {
		return nil, errors.New("basic auth and a bearer token: give one")
	}
	tlsCfg, err := cfg.TLS.Client("")
	if err != nil {
		return nil, err
	}
	cfg.Job = cmp.Or(cfg.Job, "vesload")
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 60
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsCfg
	client := &http.Client{Transport: auth{next: tr, user: cfg.User, pass: cfg.Password, bearer: cfg.Bearer}}
	api, err := remote.NewAPI(cfg.URL, remote.WithAPIPath(""), remote.WithAPIHTTPClient(client),
		remote.WithAPIBackoff(remote.BackoffConfig{Min: 100 * time.Millisecond, Max: time.Second, MaxRetries: 2}))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", redact.URL(cfg.URL), err)
	}
	w := &Writer{cfg: cfg, api: api, tr: tr, totals: map[string]int64{}, index: map[string]int{}, url: redact.URL(cfg.URL)}
	w.queue = output.NewQueue(output.QueueConfig[[]series]{Size: cfg.Queue, Write: w.write, Items: samples,
		Full: "the write queue was full: the endpoint is slower than one batch a second", Done: tr.CloseIdleConnections})
	w.base = []label{{"job", cfg.Job}}
	if cfg.RunID != "" {
		w.base = append(w.base, label{"run_id", cfg.RunID})
	}
	if cfg.Shard != "" {
		w.base = append(w.base, label{"shard", cfg.Shard})
	}
	return w, nil
}

// checkURL refuses what is no http(s) URL, and credentials in it.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return errors.New("not a URL (want http://HOST:PORT/api/v1/write)")
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q: scheme must be http or https", redact.URL(raw))
	case u.Host == "":
		return fmt.Errorf("%q: no host", redact.URL(raw))
	case u.User != nil:
		return fmt.Errorf("%q: credentials in the URL would show in process listings: give --remote-write-user and --remote-write-password-file", redact.URL(raw))
	}
	return nil
}

// auth adds basic auth or a bearer token to each request.
type auth struct {
	next               http.RoundTripper
	user, pass, bearer string
}

// RoundTrip implements http.RoundTripper on a copy of the request.
func (a auth) RoundTrip(r *http.Request) (*http.Response, error) {
	if a.user == "" && a.pass == "" && a.bearer == "" {
		return a.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	if a.bearer != "" {
		r.Header.Set("Authorization", "Bearer "+a.bearer)
	} else {
		r.SetBasicAuth(a.user, a.pass)
	}
	return a.next.RoundTrip(r)
}

// Start sets second 0 of the timeline, from which each second's samples
// are stamped. A writer never started writes nothing when closed.
func (w *Writer) Start(start time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.begun, w.start = true, start
}

// Timeline adds the samples of second sec of the timeline, read from t,
// the Tally of the requests due in it, stamped with the second's end.
// They go out with the next live second (Second). It keeps nothing of t.
func (w *Writer) Timeline(sec int64, t *result.Tally) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut || !w.begun {
		return
	}
	ms := w.start.Add(time.Duration(sec+1) * time.Second).UnixMilli()
	w.totals["ok"] += t.OK
	for class, n := range t.Classes {
		w.totals[class] += n
	}
	w.sent += t.BytesSent
	w.recv += t.BytesReceived
	for _, outcome := range slices.Sorted(maps.Keys(w.totals)) {
		w.add("vesload_run_requests_total", label{"outcome", outcome}, float64(w.totals[outcome]), ms)
	}
	w.add("vesload_run_bytes_sent_total", label{}, float64(w.sent), ms)
	w.add("vesload_run_bytes_received_total", label{}, float64(w.recv), ms)
	if t.Latency != nil && t.Latency.TotalCount() > 0 {
		for _, q := range quantiles {
			us := t.Latency.ValueAtQuantile(q.q)
			w.add("vesload_run_latency_seconds", label{"quantile", q.label}, float64(us)/1e6, ms)
		}
	}
}

// add appends one sample to the series name{extra} of the batch; w.mu
// is held.
func (w *Writer) add(name string, extra label, v float64, ms int64) {
	key := name + "\xff" + extra.name + "\xff" + extra.value
	i, ok := w.index[key]
	if !ok {
		labels := append([]label{{"__name__", name}}, w.base...)
		if extra.name != "" {
			labels = append(labels, extra)
		}
		slices.SortFunc(labels, func(a, b label) int { return cmp.Compare(a.name, b.name) })
		i = len(w.batch)
		w.batch = append(w.batch, series{labels: labels})
		w.index[key] = i
	}
	w.batch[i].samples = append(w.batch[i].samples, sample{value: v, ms: ms})
}

// Second queues the samples of the seconds closed since the last call
// with the requests in flight now. When the queue is full the batch is
// dropped and counted. It never waits for the endpoint.
func (w *Writer) Second(inFlight int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut || !w.begun {
		return
	}
	w.flush(inFlight)
}

// flush queues the batch with the in-flight gauge; w.mu is held.
func (w *Writer) flush(inFlight int64) {
	w.lastLive = max(w.cfg.Now().UnixMilli(), w.lastLive+1)
	w.add("vesload_run_in_flight", label{}, float64(inFlight), w.lastLive)
	w.queue.Put(w.batch)
	w.batch, w.index = nil, map[string]int{}
}

// samples counts the samples of a batch, for Stats.
func samples(batch []series) int64 {
	n := 0
	for _, s := range batch {
		n += len(s.samples)
	}
	return int64(n)
}

// Close queues the seconds not yet sent, waits up to wait for the queue
// to drain (output.Queue: what is not written by then is dropped and the
// write under way cancelled; its goroutine closes the writer's idle
// connections after its last write), and returns what was written. Closing again only returns the figures.
func (w *Writer) Close(wait time.Duration) Stats {
	w.mu.Lock()
	if !w.shut {
		if w.begun {
			w.flush(0)
		}
		w.shut = true
	}
	w.mu.Unlock()
	q := w.queue.Close(wait)
	return Stats{URL: w.url, Batches: q.Batches, Samples: q.Items, Failed: q.Failed, Dropped: q.Dropped, LastError: q.LastError}
}

// write pushes one batch, with the remote API's retries, within the
// timeout.
func (w *Writer) write(ctx context.Context, batch []series) error {
	ctx, cancel := context.WithTimeout(ctx, w.cfg.Timeout)
	defer cancel()
	_, err := w.api.Write(ctx, remote.WriteV1MessageType, &writeRequest{series: batch})
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is in Stats already
		}
		return fmt.Errorf("remote write: %w", err)
	}
	return nil
}

// String is the writer's endpoint, credentials hidden, for notes.
func (w *Writer) String() string { return w.url + " (job " + strconv.Quote(w.cfg.Job) + ")" }
