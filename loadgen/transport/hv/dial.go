package hv

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/vesload/vesload/internal/rawconn"
	"github.com/vesload/vesload/loadgen/transport"
)

// conn is a producer's connection with how long it took to make.
type conn struct {
	net.Conn
	connect, handshake time.Duration
	// more, on plain TCP, is the connection's MSG_MORE write: a producer
	// behind schedule writes its backlog as large segments.
	more rawconn.MoreWriter
}

// write writes frame; more says that the producer's next message is
// waiting to be written at once.
func (c *conn) write(frame []byte, more bool) (int, error) {
	if c.more != nil {
		return c.more.WriteMore(frame, more)
	}
	return c.Conn.Write(frame)
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
	c = rawconn.Wrap(c)
	k := &conn{Conn: c, connect: cfg.Clock.Now().Sub(begin)}
	if cfg.TLS == nil {
		k.more, _ = c.(rawconn.MoreWriter)
		return k, nil
	}
	hs := cfg.Clock.Now()
	t := tls.Client(c, cfg.TLS)
	if err := t.HandshakeContext(ctx); err != nil {
		c.Close()
		return nil, &transport.HandshakeError{Err: err}
	}
	k.Conn, k.handshake = t, cfg.Clock.Now().Sub(hs)
	return k, nil
}

// Cause classifies a connection or write error for the disconnection and
// dial-error tables: the engine's error class, by the one classifier of
// every transport (transport.ClassifyNet).
func Cause(err error) string { return transport.ClassifyNet(err).Name(0) }

// DefaultProbeWait is how long a new connection is read before the run
// starts: HV-VES never answers, so silence is the only good reply.
const DefaultProbeWait = 250 * time.Millisecond

// probe reads a fresh connection for up to wait. A collector that keeps
// it open and says nothing is what HV-VES looks like; an alert (a TLS
// 1.3 server refuses a client certificate only after the client's side
// of the handshake is done), a close or any data means nothing written
// here would be received.
func probe(c *conn, wait time.Duration) error {
	if wait < 0 {
		return nil
	}
	if err := c.SetReadDeadline(time.Now().Add(wait)); err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	var b [64]byte
	n, err := c.Read(b[:])
	if clear := c.SetReadDeadline(time.Time{}); clear != nil && err == nil {
		err = clear
	}
	switch {
	case n > 0:
		return fmt.Errorf("the listener answered %q (an HV-VES collector never answers): not an HV-VES listener, or plain TCP to a TLS one?", printable(b[:n]))
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil
	case errors.Is(err, io.EOF):
		return errors.New("the listener closed the connection at once (TLS expected, or the client refused?)")
	}
	return fmt.Errorf("the listener refused the connection: %w", err)
}

// printable keeps the first bytes of an answer readable on one line.
func printable(b []byte) string {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			c = '.'
		}
		out = append(out, c)
	}
	return string(out)
}
