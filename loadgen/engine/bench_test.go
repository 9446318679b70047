package engine

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"

	"github.com/vesload/vesload/loadgen/output/metrics"
	"github.com/vesload/vesload/loadgen/transport/rest"
)

// BenchmarkRequestPath measures the whole per-request path — schedule,
// body render, write, read, classify, record — against an in-memory
// fasthttp server, so the figures are the generator's own cost. The
// allocs/op it reports is the hot path's allocation count per request.
func BenchmarkRequestPath(b *testing.B) {
	ln := fasthttputil.NewInmemoryListener()
	srv := &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
		ctx.SetStatusCode(fasthttp.StatusAccepted)
		ctx.SetBodyString("Accepted")
	}, MaxIdleWorkerDuration: 20 * time.Millisecond} // its pool's cleaner ends that soon after the shutdown
	go srv.Serve(ln) //nolint:errcheck // ends at the shutdown
	defer func() {
		// Shutdown also stops the server's worker pool, which the leak check
		// would otherwise report when the benchmark runs on its own.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.ShutdownWithContext(ctx); err != nil {
			b.Error(err)
		}
	}()

	n := max(b.N, 1)
	// A rate far above what the path can do keeps every request due at
	// once; the pool of 8 bounds concurrency.
	s, err := NewSchedule(Segment{From: 1e7, To: 1e7, Duration: time.Duration(float64(n)/1e7*float64(time.Second)) + time.Microsecond})
	if err != nil {
		b.Fatal(err)
	}
	cfg := restRun{Config: Config{
		Load: s, Body: seqBody{},
		Pool: 8, PoolWait: time.Minute, Timeout: 5 * time.Second,
		// Live metrics on, as with --metrics-addr: the exporter is on the
		// per-request path too.
		Observers: []Observer{liveObserver{exp: metrics.New()}},
		// -v on: a successful request must cost it nothing.
		LogFailure: func(string) {},
	}, REST: inmemoryREST(ln)}
	e, err := newREST(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	res, err := e.Run(context.Background())
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if res.Requests.OK != s.Total() {
		b.Fatalf("ok %d of %d: errors %v", res.Requests.OK, s.Total(), res.Errors)
	}
}

// inmemoryREST are the REST options of a run against ln, an in-memory
// listener, with keep-alive.
func inmemoryREST(ln *fasthttputil.InmemoryListener) rest.Options {
	return rest.Options{URL: "http://vesload.test/eventListener/v7", KeepAlive: true,
		Dial: func(string) (net.Conn, error) { return ln.Dial() }}
}

// requestPath runs n requests through the whole per-request path of
// BenchmarkRequestPath (schedule, dispatch, body render, write, read,
// classify, record, the observers' Request) against srv, with live
// metrics and -v on.
func requestPath(t *testing.T, ln *fasthttputil.InmemoryListener, n int64) {
	t.Helper()
	// Far above what the path can do: every request is due at once and
	// the run lasts well under a second, so no tick adds its own work.
	s, err := NewSchedule(Segment{From: 1e7, To: 1e7, Duration: time.Duration(float64(n)/1e7*float64(time.Second)) + time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	cfg := restRun{Config: Config{
		Load: s, Body: seqBody{},
		Pool: 8, PoolWait: time.Minute, Timeout: 5 * time.Second,
		Observers:   []Observer{liveObserver{exp: metrics.New()}, NopObserver{}},
		LogFailure:  func(string) {},
		NoPreflight: true,
		Generator:   noSampler{},
	}, REST: inmemoryREST(ln)}
	e, err := newREST(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests.OK != s.Total() {
		t.Fatalf("ok %d of %d: errors %v", res.Requests.OK, s.Total(), res.Errors)
	}
}

// The request path allocates nothing: a run of 4,000 more requests costs
// no more allocations than a short one (what a run costs whatever its
// length, its set-up, cancels out), so `make test` guards what
// BenchmarkRequestPath measures. `make test` runs it without the race
// detector too, under which sync.Pool drops buffers on purpose.
func TestRequestPathAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop buffers: allocations are counted without it (make test runs it so)")
	}
	ln := fasthttputil.NewInmemoryListener()
	srv := &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
		ctx.SetStatusCode(fasthttp.StatusAccepted)
		ctx.SetBodyString("Accepted")
	}, MaxIdleWorkerDuration: 20 * time.Millisecond}
	go srv.Serve(ln) //nolint:errcheck // ends at the shutdown
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.ShutdownWithContext(ctx); err != nil {
			t.Error(err)
		}
	}()
	const short, long = 1000, 5000
	requestPath(t, ln, long) // the server's and the pools' first allocations
	base := testing.AllocsPerRun(3, func() { requestPath(t, ln, short) })
	more := testing.AllocsPerRun(3, func() { requestPath(t, ln, long) })
	perRequest := (more - base) / (long - short)
	t.Logf("allocations per run: %.0f for %d requests, %.0f for %d: %.3f per request", base, short, more, long, perRequest)
	if perRequest >= 0.05 {
		t.Errorf("the request path allocates %.3f times per request (%.0f allocations for %d requests, %.0f for %d), want none",
			perRequest, base, short, more, long)
	}
}

// noSampler reads nothing: the test counts the engine's allocations, not
// a process reader's.
type noSampler struct{}

func (noSampler) Sample(context.Context, time.Time) (Reading, error) {
	return Reading{NoCPU: true}, nil
}

func (noSampler) Source() string   { return "none" }
func (noSampler) Series() []string { return nil }
