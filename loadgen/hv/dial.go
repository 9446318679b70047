package hv

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"time"
)

// conn is a producer's connection with how long it took to make.
type conn struct {
	net.Conn
	connect, handshake time.Duration
}

// dial connects to the collector, with the TLS handshake when configured,
// within the dial timeout.
func dial(ctx context.Context, cfg *Config) (*conn, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout)
	defer cancel()
	begin := cfg.Clock.Now()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", cfg.Addr)
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true) // every frame is a whole message: send it at once (cannot fail on an open socket)
	}
	k := &conn{Conn: c, connect: cfg.Clock.Now().Sub(begin)}
	if cfg.TLS == nil {
		return k, nil
	}
	hs := cfg.Clock.Now()
	t := tls.Client(c, cfg.TLS)
	if err := t.HandshakeContext(ctx); err != nil {
		c.Close()
		return nil, &handshakeError{err}
	}
	k.Conn, k.handshake = t, cfg.Clock.Now().Sub(hs)
	return k, nil
}

// Cause classifies a connection or write error for the disconnection and
// dial-error tables, with the engine's error-class names where they
// exist.
func Cause(err error) string {
	var ne net.Error
	var te *tls.CertificateVerificationError
	var ae tls.AlertError
	var de *net.DNSError
	switch {
	case errors.As(err, &te), errors.As(err, &ae):
		return "tls"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "conn_refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "conn_reset"
	case errors.Is(err, syscall.EPIPE):
		return "broken_pipe"
	case errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed):
		return "closed"
	case errors.As(err, &de):
		return "dns"
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	}
	var he *handshakeError
	if errors.As(err, &he) {
		return "tls"
	}
	return "other"
}

// handshakeError marks a failed TLS handshake, whatever its cause.
type handshakeError struct{ err error }

func (e *handshakeError) Error() string { return "TLS handshake: " + e.err.Error() }
func (e *handshakeError) Unwrap() error { return e.err }
