package kafkaconf

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"time"
)

// dialTimeout bounds one connection with its TLS handshake, as franz-go's
// own TLS dialer does.
const dialTimeout = 10 * time.Second

// handshakeStall is how long a TLS handshake may go unanswered before the
// broker is asked, on a second connection, whether it speaks plaintext
// Kafka. A plaintext broker reads the ClientHello as the start of a
// request hundreds of megabytes long and waits for the rest, so the
// handshake would otherwise end only with the dial timeout and "context
// deadline exceeded".
const handshakeStall = time.Second

// tlsDialer dials brokers over TLS, and names a plaintext broker as such.
type tlsDialer struct {
	cfg   *tls.Config
	stall time.Duration
}

// errPlaintext is not a network error, so franz-go does not retry it.
type errPlaintext struct{ host string }

func (e errPlaintext) Error() string {
	return fmt.Sprintf("broker %s speaks plaintext Kafka, not TLS: use kafka:// without the Kafka TLS flags, or the port of its TLS listener", e.host)
}

func (d tlsDialer) dial(ctx context.Context, network, host string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	var nd net.Dialer
	raw, err := nd.DialContext(ctx, network, host)
	if err != nil {
		return nil, err
	}
	cfg := d.cfg.Clone()
	if cfg.ServerName == "" {
		if h, _, err := net.SplitHostPort(host); err == nil {
			cfg.ServerName = h
		}
	}
	conn := tls.Client(raw, cfg)
	done := make(chan error, 1)
	go func() { done <- conn.HandshakeContext(ctx) }()
	failed := func(err error) (net.Conn, error) {
		_ = raw.Close()
		if plaintextKafka(ctx, network, host, d.stall) {
			return nil, errPlaintext{host}
		}
		return nil, err
	}
	stall := time.NewTimer(d.stall)
	defer stall.Stop()
	select {
	case err := <-done:
		if err != nil {
			return failed(err)
		}
		return conn, nil
	case <-stall.C:
	}
	probe := make(chan bool, 1)
	go func() { probe <- plaintextKafka(ctx, network, host, d.stall) }()
	select {
	case err := <-done:
		<-probe
		if err != nil {
			return failed(err)
		}
		return conn, nil
	case plain := <-probe:
		if plain {
			cancel()
			<-done
			_ = raw.Close()
			return nil, errPlaintext{host}
		}
	}
	if err := <-done; err != nil {
		_ = raw.Close()
		return nil, err
	}
	return conn, nil
}

// plaintextKafka reports whether host answers a plaintext ApiVersions
// request (version 0) within wait. A TLS listener answers it with an
// alert or not at all.
func plaintextKafka(ctx context.Context, network, host string, wait time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var nd net.Dialer
	c, err := nd.DialContext(ctx, network, host)
	if err != nil {
		return false
	}
	defer c.Close()
	deadline, _ := ctx.Deadline()
	_ = c.SetDeadline(deadline)
	const correlation = 0x7665736c // "vesl"
	// size, api key 18 (ApiVersions), version 0, correlation id, null client id
	req := []byte{0, 0, 0, 10, 0, 18, 0, 0, 0, 0, 0, 0, 0xff, 0xff}
	binary.BigEndian.PutUint32(req[8:], correlation)
	if _, err := c.Write(req); err != nil {
		return false
	}
	var resp [8]byte
	if _, err := io.ReadFull(c, resp[:]); err != nil {
		return false
	}
	size := binary.BigEndian.Uint32(resp[:4])
	return size >= 4 && size < 1<<20 && binary.BigEndian.Uint32(resp[4:]) == correlation
}
