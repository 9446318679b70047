package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// MetricsPath is where Serve publishes the metrics, Prometheus' default.
const MetricsPath = "/metrics"

// Serve listens on addr (host:port, such as 127.0.0.1:9464) and serves the
// metrics at /metrics until stop is called. stop shuts the server down
// gracefully within its context, so that a last scrape in progress
// completes, and returns any error the server met while serving.
func (e *Exporter) Serve(addr string) (stop func(ctx context.Context) error, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics listen %s: %w", addr, err)
	}
	return e.ServeListener(ln), nil
}

// ServeListener is Serve on a listener the caller opened, for a port
// chosen by the system (":0") whose address the caller wants to know.
func (e *Exporter) ServeListener(ln net.Listener) (stop func(ctx context.Context) error) {
	mux := http.NewServeMux()
	mux.Handle(MetricsPath, e.handler)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var once sync.Once
	var result error
	return func(ctx context.Context) error {
		once.Do(func() { result = shutdown(ctx, srv, served) })
		return result
	}
}

// shutdown stops srv and reports what went wrong while it served.
func shutdown(ctx context.Context, srv *http.Server, served <-chan error) error {
	shutErr := srv.Shutdown(ctx)
	if shutErr != nil {
		_ = srv.Close() // the context ended first: cut what is left
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("metrics server: %w", err)
	}
	if shutErr != nil {
		return fmt.Errorf("metrics server shutdown: %w", shutErr)
	}
	return nil
}
