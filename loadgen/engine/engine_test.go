package engine

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/loadgen/transport/rest"
	"github.com/vesload/vesload/report/result"
)

// seqBody renders a tiny JSON body carrying the sequence number.
type seqBody struct{}

func (seqBody) AppendBody(dst []byte, seq uint64, _ time.Time) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendUint(dst, seq, 10)
	return append(dst, '}')
}

func testConfig(t *testing.T, url string, rps float64, d time.Duration) restRun {
	t.Helper()
	s, err := Constant(rps, d)
	if err != nil {
		t.Fatal(err)
	}
	return restRun{Config: Config{Load: s, Body: seqBody{}, Pool: 16, Timeout: 2 * time.Second},
		REST: rest.Options{URL: url, KeepAlive: true}}
}

func run(t *testing.T, cfg restRun) *result.Result {
	t.Helper()
	e, err := newREST(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	return res
}

func checkAccounting(t *testing.T, res *result.Result) {
	t.Helper()
	if err := res.AccountingError(); err != nil {
		t.Fatalf("accounting: %v", err)
	}
	if res.Requests.OK+res.Requests.Errors-res.Errors["pool_exhausted"] != res.Requests.Sent {
		t.Fatalf("ok %d + errors %d - pool_exhausted %d != sent %d",
			res.Requests.OK, res.Requests.Errors, res.Errors["pool_exhausted"], res.Requests.Sent)
	}
}

func TestExactCount(t *testing.T) {
	t.Parallel()
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		got.Add(1)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	cfg := testConfig(t, srv.URL+"/eventListener/v7", 200, time.Second)
	cfg.Pool = 200 // never short of connections, even on a loaded machine
	res := run(t, cfg)
	if res.Requests.Scheduled != 200 || res.Requests.Sent != 200 || res.Requests.OK != 200 || got.Load() != 200 {
		t.Fatalf("scheduled %d sent %d ok %d server saw %d, want 200 each (errors %v)",
			res.Requests.Scheduled, res.Requests.Sent, res.Requests.OK, got.Load(), res.Errors)
	}
	if res.Latency.Count != 200 || res.Latency.P50 <= 0 || res.Latency.Max < res.Latency.P50 {
		t.Fatalf("latency summary %+v", res.Latency)
	}
	if res.RPS.Target != 200 || res.RPS.Achieved != 200 {
		t.Fatalf("rate %+v, want 200 asked and achieved", res.RPS)
	}
	if len(res.Timeline) == 0 || res.Histograms.Latency == "" {
		t.Fatalf("no timeline (%d) or histogram", len(res.Timeline))
	}
	var sum int64
	for _, s := range res.Timeline {
		sum += s.Sent
	}
	if sum != 200 {
		t.Fatalf("timeline sent adds up to %d, want 200", sum)
	}
}

// A target slower than the rate asked, in a synctest bubble: what finds
// no free connection is refused, and never more than the pool is in
// flight.
func TestPoolExhaustedUnderSlowTarget(t *testing.T) {
	t.Parallel()
	s, err := Constant(50, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := runVirtual(t, Config{Load: s, Pool: 2, Timeout: 2 * time.Second}, &virtualTarget{service: 300 * time.Millisecond})
	pe := res.Errors["pool_exhausted"]
	// Two connections serving 300 ms each handle at most 8 of 50 requests a second.
	if pe < 30 || res.Requests.Sent > 20 {
		t.Fatalf("pool_exhausted %d sent %d: want most requests refused for want of a connection", pe, res.Requests.Sent)
	}
	if res.Generator.MaxInFlight != 2 {
		t.Fatalf("max in flight %d with a pool of 2", res.Generator.MaxInFlight)
	}
}

// One connection that serves 20/s, asked for 40/s, waiting as long as
// needed: requests queue, so latency from the due time grows while the
// service time stays 50 ms. Coordinated omission would hide this. The
// target answers in 50 ms of a synctest bubble's time, so the service
// time is exact however busy the machine.
func TestLatencyFromDueTimeUnderStall(t *testing.T) {
	t.Parallel()
	s, err := Constant(40, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := runVirtual(t, Config{Load: s, Pool: 1, PoolWait: 5 * time.Second, Timeout: 2 * time.Second},
		&virtualTarget{service: 50 * time.Millisecond})
	if res.Requests.Sent != 40 {
		t.Fatalf("sent %d, want all 40 (pool wait is long)", res.Requests.Sent)
	}
	if res.Service.P99 > 200 || res.Latency.P99 < 3*res.Service.P99 {
		t.Fatalf("latency p99 %.1f ms, service p99 %.1f ms: want latency to show the queue", res.Latency.P99, res.Service.P99)
	}
}

func TestErrorClasses(t *testing.T) {
	t.Parallel()
	ves := func(code int, id string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			io.WriteString(w, `{"requestError":{"ServiceException":{"messageId":"`+id+`","text":"x"}}}`)
		}
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedURL := "http://" + closed.Addr().String()
	closed.Close()
	tests := []struct {
		name    string
		handler http.Handler
		url     string
		class   string
		msgID   string
	}{
		{"401", ves(401, "POL2000"), "", "http_401", "POL2000"},
		{"503", ves(503, "SVC2000"), "", "http_503", "SVC2000"},
		{"timeout", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			<-r.Context().Done() // no answer: the client gives up and closes the connection
		}), "", "timeout", ""},
		{"refused", nil, refusedURL, "conn_refused", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			url := tt.url
			if tt.handler != nil {
				srv := httptest.NewServer(tt.handler)
				defer srv.Close()
				url = srv.URL
			}
			cfg := testConfig(t, url, 10, 500*time.Millisecond)
			cfg.Timeout = 500 * time.Millisecond // the timeout case never answers; the others answer at once, even on a loaded machine
			cfg.NoPreflight = true
			res := run(t, cfg)
			if res.Errors[tt.class] != 5 || res.Requests.Errors != 5 {
				t.Fatalf("errors %v, want 5 of %s", res.Errors, tt.class)
			}
			if tt.msgID != "" && res.MessageIDs[tt.msgID] != 5 {
				t.Fatalf("message ids %v, want 5 of %s", res.MessageIDs, tt.msgID)
			}
		})
	}
}

func TestPreflightFailsFast(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	e, err := newREST(testConfig(t, url, 10, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(context.Background()); err == nil {
		t.Fatal("run against a closed port started")
	}
}

func TestCancelCountsNotSent(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	e, err := newREST(testConfig(t, srv.URL, 100, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	res, err := e.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, res)
	if !res.Interrupted || res.Requests.NotSent < 800 || res.Requests.Sent < 10 {
		t.Fatalf("interrupted %v sent %d not sent %d", res.Interrupted, res.Requests.Sent, res.Requests.NotSent)
	}
}

// An abort counts the requests in flight as aborted, and shows each of
// them to the observers as one aborted request: every request sent is one
// event (one JTL row), whether it was answered before the abort or not.
func TestAbortCountsInFlight(t *testing.T) {
	t.Parallel()
	for _, answered := range []int64{0, 3} {
		t.Run(strconv.FormatInt(answered, 10)+" answered", func(t *testing.T) {
			t.Parallel()
			release, held := make(chan struct{}), make(chan struct{})
			var seen atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				n := seen.Add(1)
				if n == answered+2 {
					close(held) // two requests wait unanswered: time to stop
				}
				if n > answered {
					<-release
				}
			}))
			defer srv.Close()
			defer close(release)
			cfg := testConfig(t, srv.URL, 20, 10*time.Second)
			cfg.Timeout = 30 * time.Second
			events := &outcomeCounter{}
			cfg.Observers = []Observer{events}
			e, err := newREST(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				<-held
				cancel()
				// The abort comes once the stop has ended the dispatching,
				// while the run drains the requests in flight.
				waitfor.True(10*time.Second, time.Millisecond, e.dispatched.Load)
				e.Abort()
			}()
			start := time.Now()
			res, err := e.Run(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if time.Since(start) > 5*time.Second {
				t.Fatalf("abort took %v", time.Since(start))
			}
			checkAccounting(t, res)
			aborted := res.Errors["aborted"]
			if aborted == 0 || aborted != res.Requests.Sent-res.Requests.OK || res.Requests.OK != answered {
				t.Fatalf("aborted %d, ok %d of %d sent; want %d answered", aborted, res.Requests.OK, res.Requests.Sent, answered)
			}
			events.mu.Lock()
			defer events.mu.Unlock()
			if events.total != res.Requests.Sent || events.by["aborted"] != aborted || events.by["ok"] != answered {
				t.Errorf("observers saw %d requests %v; the result has %d sent, %d aborted", events.total, events.by, res.Requests.Sent, aborted)
			}
			if events.seqs != int(events.total) {
				t.Errorf("%d distinct request numbers among %d events", events.seqs, events.total)
			}
		})
	}
}

// outcomeCounter counts the requests the observers see, by outcome, and
// their distinct numbers.
type outcomeCounter struct {
	NopObserver
	mu    sync.Mutex
	total int64
	by    map[string]int64
	seen  map[int64]bool
	seqs  int
}

func (c *outcomeCounter) Request(ev *RequestEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by, c.seen = map[string]int64{}, map[int64]bool{}
	}
	c.total++
	c.by[ev.Outcome]++
	if !c.seen[ev.Seq] {
		c.seen[ev.Seq] = true
		c.seqs++
	}
}

// A million requests a second with one connection: the dispatcher never
// sleeps, it is always behind. A stop must still stop it. It runs in
// real time, since a dispatcher that never waits never lets a synctest
// bubble's time move; the target holds each answer until the stop.
func TestCancelWhileBehindSchedule(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-ctx.Done():
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	cfg := testConfig(t, srv.URL, 1e6, 10*time.Second)
	cfg.Pool = 1
	e, err := newREST(cfg)
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	res, err := e.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(begin); took > 5*time.Second {
		t.Fatalf("the run took %v to stop", took)
	}
	checkAccounting(t, res)
	if !res.Interrupted || res.Requests.NotSent == 0 {
		t.Fatalf("interrupted %v requests %+v", res.Interrupted, res.Requests)
	}
}
