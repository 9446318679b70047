package loadgen

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"

	"github.com/vesload/vesload/loadgen/metrics"
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
	cfg := Config{
		URL: "http://vesload.test/eventListener/v7", Load: s, Body: seqBody{},
		Pool: 8, PoolWait: time.Minute, Timeout: 5 * time.Second, KeepAlive: true,
		Dial: func(string) (net.Conn, error) { return ln.Dial() },
		// Live metrics on, as with --metrics-addr: the exporter is on the
		// per-request path too.
		Observers: []Observer{liveObserver{exp: metrics.New()}},
	}
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
