package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// Options configure a dashboard.
type Options struct {
	// Addr is host:port to listen on; an empty host is the loopback
	// address, port 0 any free port.
	Addr string
	// Gates are the run's thresholds, judged on every update so that the
	// page shows which hold so far.
	Gates []threshold.Threshold
	// Meta completes every update as the run completes its result (tool,
	// configuration, the set-up's notes); nil for none.
	Meta func(*result.Result)
}

// Tuning of the feed and the browsers' streams. Each update is the whole
// page, so a dropped one costs nothing but a second of staleness.
const (
	// feedBuffer is how many snapshots may wait for the renderer; a newer
	// one replaces the oldest waiting.
	feedBuffer = 1
	// clientBuffer is how many updates may wait for one browser.
	clientBuffer = 1
	// sendBuffer is the kernel's send buffer of each browser connection:
	// small, so that a browser that stops reading shows as dropped
	// updates at once rather than as megabytes queued in the kernel.
	sendBuffer = 16 << 10
	// writeTimeout ends the stream of a browser that has taken no data
	// for this long; its script reconnects when it reads again.
	writeTimeout = 15 * time.Second
)

// checkpointNote is the engine's warning on every snapshot, which a live
// page says in its banner instead.
const checkpointNote = "checkpoint of a run in progress"

// Server is the dashboard of one run: an observer of its snapshots and
// the HTTP server of its page. Create it with Listen, register it in
// Config.Observers with Config.CheckpointEvery at one second, call
// Complete and Finish with the final result and Close at the end.
type Server struct {
	engine.NopObserver
	opts Options
	ln   net.Listener
	srv  *http.Server

	feed       chan *result.Result
	feedDrops  atomic.Int64
	rendered   chan struct{} // closed when the renderer has stopped
	serveDone  chan struct{}
	quit       chan struct{}
	finishOnce sync.Once
	closeOnce  sync.Once

	mu       sync.Mutex
	res      *result.Result // of the latest update, nil before the first
	live     html.Live
	latest   []byte // the latest update as an event, nil before the first
	final    []byte // the finished report, nil while the run goes on
	clients  map[*client]struct{}
	drops    int64 // updates a slow browser had no room for
	updates  int64
	finished bool
}

// client is one browser's event stream.
type client struct{ ch chan []byte }

// Listen starts serving the page on o.Addr. The page shows that the run
// is waiting for its first second until the first snapshot comes.
func Listen(o Options) (*Server, error) {
	addr, err := ListenAddr(o.Addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	s := &Server{
		opts:      o,
		ln:        smallSendBuffers{ln},
		feed:      make(chan *result.Result, feedBuffer),
		rendered:  make(chan struct{}),
		serveDone: make(chan struct{}),
		quit:      make(chan struct{}),
		clients:   map[*client]struct{}{},
		live:      html.Live{State: html.LiveRunning, Status: "Waiting for the first second of the run."},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /events", s.events)
	mux.HandleFunc("GET /report.html", s.report)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		defer close(s.serveDone)
		_ = s.srv.Serve(s.ln) // ends with Close
	}()
	go s.render()
	return s, nil
}

// ListenAddr is the address to listen on for addr: host:port, a bare
// port, or :port. Without a host it is the loopback address: the page
// shows the run's target and configuration, so reaching it from other
// machines takes an explicit address such as 0.0.0.0:5665.
func ListenAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if _, perr := net.LookupPort("tcp", addr); perr != nil || addr == "" {
			return "", fmt.Errorf("--dashboard %q: want host:port, :port or a port", addr)
		}
		host, port = "", addr
	}
	if _, err := net.LookupPort("tcp", port); err != nil || port == "" {
		return "", fmt.Errorf("--dashboard %q: bad port %q", addr, port)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// URL is where the page is served.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/" }

// OutputName implements engine.OutputNamer.
func (s *Server) OutputName() (name string, live bool) { return "--dashboard", true }

// Checkpoint takes a snapshot of the run without waiting: it is copied
// and handed to the renderer through a bounded buffer; when the buffer is
// full the oldest snapshot waiting is dropped (and counted) for it, so
// the engine's checkpoint writer never waits for the page and the page
// ends on the newest snapshot. Checkpoints come from one goroutine.
func (s *Server) Checkpoint(r *result.Result) {
	c := *r
	c.Warnings = slices.DeleteFunc(slices.Clone(r.Warnings), func(w string) bool { return w == checkpointNote })
	c.Interrupted = false
	for {
		select {
		case s.feed <- &c:
			return
		default:
		}
		select {
		case <-s.feed:
			s.feedDrops.Add(1)
		default:
		}
	}
}

// render turns snapshots into updates, one at a time, off the engine's
// goroutines.
func (s *Server) render() {
	defer close(s.rendered)
	for r := range s.feed {
		if s.opts.Meta != nil {
			s.opts.Meta(r)
		}
		r.Thresholds = threshold.EvalAll(s.opts.Gates, r)
		s.mu.Lock()
		drops := s.drops + s.feedDrops.Load()
		s.mu.Unlock()
		live := html.Live{State: html.LiveRunning, Status: runningStatus(r, drops)}
		ev, err := event(r, live)
		if err != nil {
			continue // a page that cannot be rendered keeps the last one
		}
		s.publish(r, live, ev, nil)
	}
}

func runningStatus(r *result.Result, drops int64) string {
	s := fmt.Sprintf("Running: %s of %s, %d requests sent; the page follows the run every second.",
		seconds(r.DurationS), seconds(r.Config.DurationS), r.Requests.Sent)
	if drops > 0 {
		s += fmt.Sprintf(" %d updates dropped so far.", drops)
	}
	return s
}

func seconds(s float64) string { return fmt.Sprintf("%.0f s", s) }

// update is one message of the event stream: the whole page.
type update struct {
	State  html.LiveState  `json:"state"`
	Status string          `json:"status"`
	Main   string          `json:"main"`
	Charts json.RawMessage `json:"charts"`
}

func event(r *result.Result, live html.Live) ([]byte, error) {
	parts, err := html.PageParts(r, live.State)
	if err != nil {
		return nil, err
	}
	// encoding/json escapes <, > and &, and writes no raw newline: one
	// event is one data line.
	return json.Marshal(update{State: live.State, Status: live.Status, Main: parts.Main, Charts: json.RawMessage(parts.Charts)})
}

// publish makes an update the latest and offers it to every browser
// without waiting: a browser with no room for it misses it.
func (s *Server) publish(r *result.Result, live html.Live, ev, final []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished {
		return
	}
	s.res, s.live, s.latest = r, live, ev
	if final != nil {
		s.final, s.finished = final, true
	}
	s.updates++
	for c := range s.clients {
		select {
		case c.ch <- ev:
		default:
			s.drops++
		}
	}
}

// Dropped is how many updates were dropped so far: snapshots the
// renderer had no room for and updates slow browsers had no room for.
func (s *Server) Dropped() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.drops + s.feedDrops.Load()
}

// Complete stops the page's feed and adds to res what its browsers
// missed, as a warning: part of completing the result, before it is
// judged, so that nothing changes the result after the verdict. A nil
// server does nothing.
func (s *Server) Complete(res *result.Result) {
	if s == nil {
		return
	}
	s.stopFeed()
	if n := s.Dropped(); n > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"dashboard: %d of its updates were dropped (a browser did not keep up, or the page lagged the run); the run did not wait for it", n))
	}
}

// Finish shows the final result: the page becomes the report --html
// writes for res, and report.html serves that file. Call it once res is
// completed (Complete) and judged; it does not change res. A nil Server
// (no page served) does nothing.
func (s *Server) Finish(res *result.Result) {
	if s == nil {
		return
	}
	s.finishOnce.Do(func() {
		s.stopFeed()
		live := html.Live{State: html.LiveFinished, Status: fmt.Sprintf("Finished after %s: this is the run's report.", seconds(res.DurationS))}
		if res.Interrupted {
			live = html.Live{State: html.LiveInterrupted, Status: fmt.Sprintf(
				"Interrupted after %s of %s: this is the report of the part that ran.", seconds(res.DurationS), seconds(res.Config.DurationS))}
		}
		var b bytes.Buffer
		if err := html.Report(&b, res); err != nil {
			return
		}
		ev, err := event(res, live)
		if err != nil {
			return
		}
		s.publish(res, live, ev, b.Bytes())
	})
}

// stopFeed ends the renderer once it has rendered what is waiting.
func (s *Server) stopFeed() {
	s.closeOnce.Do(func() { close(s.feed) })
	<-s.rendered
}

// Close stops serving: every stream ends and the listener closes.
func (s *Server) Close() error {
	s.stopFeed()
	select {
	case <-s.quit:
	default:
		close(s.quit)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.srv.Close()
	}
	<-s.serveDone
	return err
}

// page serves the live page as it stands.
func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	r, live := s.res, s.live
	s.mu.Unlock()
	var b bytes.Buffer
	if err := html.LivePage(&b, r, live); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b.Bytes())
}

// report serves the finished report, the file --html writes.
func (s *Server) report(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	final := s.final
	s.mu.Unlock()
	if final == nil {
		http.Error(w, "the report is served once the run has ended", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="vesload-report.html"`)
	_, _ = w.Write(final)
}

// events streams the updates as Server-Sent Events, beginning with the
// latest, so that a browser that comes late has the whole run so far.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	c := &client{ch: make(chan []byte, clientBuffer)}
	s.mu.Lock()
	if s.latest != nil {
		c.ch <- s.latest
	}
	s.clients[c] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.clients, c)
		s.mu.Unlock()
	}()
	rc := http.NewResponseController(w)
	if err := rc.Flush(); err != nil {
		return
	}
	for {
		select {
		case ev := <-c.ch:
			_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
			if _, err := fmt.Fprintf(w, "data: %s\n\n", ev); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.quit:
			return
		}
	}
}

// smallSendBuffers gives every accepted connection a small kernel send
// buffer (sendBuffer).
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(sendBuffer)
	}
	return c, err
}
