package rest

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sync"
	"time"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/transport"
)

// target is the parsed request URL: where to connect, and the name TLS checks.
type target struct {
	addr  string // host:port
	host  string // for TLS server name
	isTLS bool
}

func parseTarget(raw string) (target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return target{}, fmt.Errorf("url %q: %w", raw, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return target{}, fmt.Errorf("url %q: scheme must be http or https", raw)
	case u.Host == "":
		return target{}, fmt.Errorf("url %q: no host", raw)
	}
	t := target{host: u.Hostname(), isTLS: u.Scheme == "https"}
	port := u.Port()
	if port == "" {
		port = "80"
		if t.isTLS {
			port = "443"
		}
	}
	t.addr = net.JoinHostPort(t.host, port)
	return t, nil
}

// preflight connects to the target once (and completes the TLS handshake
// for https) so that a wrong address fails the run before it starts.
func preflight(ctx context.Context, t target, tc *tls.Config, timeout time.Duration, dial func(string) (net.Conn, error)) error {
	if timeout > 5*time.Second {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var conn net.Conn
	var err error
	if dial != nil {
		conn, err = dial(t.addr)
	} else {
		var d net.Dialer
		conn, err = d.DialContext(ctx, "tcp", t.addr)
	}
	if err != nil {
		return fmt.Errorf("preflight: cannot connect to %s: %w", t.addr, err)
	}
	defer conn.Close()
	if t.isTLS {
		tconn := tls.Client(conn, tc)
		err := tconn.HandshakeContext(ctx)
		if err == nil {
			// TLS 1.3 refuses a client certificate after the client's
			// side of the handshake: the alert is the first thing read.
			_ = tconn.SetReadDeadline(time.Now().Add(preflightAlertWait))
			var b [1]byte
			if _, rerr := tconn.Read(b[:]); tlsconf.Explain(rerr) != "" {
				err = rerr
			}
		}
		if err != nil {
			return tlsRefused(t.addr, err)
		}
	}
	return nil
}

// tlsRefused is a failed handshake of the preflight: the target refuses
// every request, and the line says why when the error tells (a plain
// port, a certificate the CA does not sign, a refused client
// certificate).
func tlsRefused(addr string, err error) error {
	why := tlsconf.Explain(err)
	var rec tls.RecordHeaderError
	if errors.As(err, &rec) {
		why += ": use http://"
	}
	if why == "" {
		return &transport.RefusedError{Why: fmt.Sprintf("preflight: TLS handshake with %s: %v", addr, err), Err: err}
	}
	return &transport.RefusedError{Why: fmt.Sprintf("preflight: TLS handshake with %s: %s (%v)", addr, why, err), Err: err}
}

// preflightAlertWait is how long the preflight listens after a TLS
// handshake for the server's refusal of the client certificate.
const preflightAlertWait = 200 * time.Millisecond

// warmDialer hands out connections opened before the run's clock starts,
// then dials as usual; every connection comes with how long opening it
// took (JMeter's Connect), which the first request on it reports. Without it every request of the first milliseconds
// of a fast run finds no idle connection and opens one, so the run starts
// with a burst of connection set-ups that shows up as pool_exhausted and
// as service time that belongs to no request.
type warmDialer struct {
	ready chan warmConn
	dial  func(addr string) (net.Conn, error)
}

// warmConn is a connection opened ahead: when, and how long it took.
type warmConn struct {
	net.Conn
	opened time.Time
	took   time.Duration
}

// warmMaxAge bounds how long an opened connection waits for its first
// request: servers close idle connections, and a POST on a connection the
// server has closed fails.
const warmMaxAge = 2 * time.Second

func newWarmDialer(dial func(addr string) (net.Conn, error), capacity int) *warmDialer {
	return &warmDialer{ready: make(chan warmConn, capacity), dial: dial}
}

// Dial returns a connection to addr, one opened ahead while there is a
// fresh one, and how long opening it took.
func (w *warmDialer) Dial(addr string) (net.Conn, time.Duration, error) {
	for {
		select {
		case c := <-w.ready:
			if time.Since(c.opened) < warmMaxAge {
				return c.Conn, c.took, nil
			}
			c.Close()
		default:
			start := time.Now()
			c, err := w.dial(addr)
			return c, time.Since(start), err
		}
	}
}

// warm opens n connections to addr in parallel; failures are ignored (the
// run dials again when it needs a connection, and counts what fails).
func (w *warmDialer) warm(addr string, n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			if c, err := w.dial(addr); err == nil {
				now := time.Now()
				select {
				case w.ready <- warmConn{Conn: c, opened: now, took: now.Sub(start)}:
				default:
					c.Close()
				}
			}
		}()
	}
	wg.Wait()
}

// close shuts the connections that were never used.
func (w *warmDialer) close() {
	for {
		select {
		case c := <-w.ready:
			c.Close()
		default:
			return
		}
	}
}
