// Package probe measures the network between a generator and its target
// before a load test: TCP connect time, TLS handshake, one HTTP round
// trip, and bulk throughput to a sink (`vesload serve --sink`). A node's
// link, not its CPU, is what usually limits a generator (8 KiB events
// fill 100 MB/s at about 12k events/s), so each shard's link is worth
// knowing before the load starts.
//
// The package measures and returns figures (report/result's Probe); it
// formats nothing.
package probe

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/report/result"
)

// Options say what to probe and how much.
type Options struct {
	// Target is an http(s) URL, tls://HOST:PORT for the TCP connect and
	// TLS handshake times (an HV-VES TLS listener, which speaks no HTTP),
	// or a bare HOST:PORT for the TCP connect time alone (with the
	// handshake too when UseTLS is set).
	Target string
	// UseTLS makes a bare HOST:PORT a TLS target, as tls:// does: the
	// command line sets it when a CA or client certificate is given.
	UseTLS bool
	// Connects is how many TCP connections are timed (default 5).
	Connects int
	// TLS configures https targets and sinks; nil uses the system roots.
	TLS *tls.Config
	// Sink, when set, is the URL of a `vesload serve --sink` listener;
	// BulkBytes are posted to it over one connection (default 32 MiB).
	Sink      string
	BulkBytes int64
	// Timeout bounds each step (default 10 s).
	Timeout time.Duration
	// Header is added to the HTTP round trip (basic auth, say).
	Header http.Header
}

// SinkReply is what a sink answers: how much it read.
type SinkReply struct {
	Bytes int64 `json:"bytes"`
}

func (o *Options) defaults() {
	if o.Connects <= 0 {
		o.Connects = 5
	}
	if o.BulkBytes <= 0 {
		o.BulkBytes = 32 << 20
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
}

// Run probes the target. An error means a step could not be done (the
// target refused connections, the handshake failed, …); its message
// names the step, and the report beside it holds what the steps before
// measured (nil only when the target does not parse).
func Run(ctx context.Context, o Options) (*result.Probe, error) {
	o.defaults()
	u, addr, err := ParseTarget(o.Target)
	if err != nil {
		return nil, err
	}
	r := &result.Probe{Target: o.Target, Address: addr}
	if err := connects(ctx, r, addr, o); err != nil {
		return r, err
	}
	switch {
	case u != nil && u.Scheme == "tls", u == nil && o.UseTLS:
		if err := tlsOnly(ctx, r, addr, o); err != nil {
			return r, err
		}
	case u != nil:
		if err := roundTrip(ctx, r, u, addr, o); err != nil {
			return r, err
		}
	}
	if o.Sink != "" {
		b, err := bulk(ctx, o)
		if err != nil {
			return r, err
		}
		r.Bulk = b
	}
	return r, nil
}

// tlsOnly times a TLS handshake with addr, for a listener that speaks
// TLS but not HTTP.
func tlsOnly(ctx context.Context, r *result.Probe, addr string, o Options) error {
	d := net.Dialer{Timeout: o.Timeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("tcp connect to %s: %w", addr, err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(o.Timeout))
	host, _, _ := net.SplitHostPort(addr)
	_, err = handshake(ctx, r, conn, host, addr, o)
	return err
}

// handshake completes a TLS handshake on conn and records its time and
// version.
func handshake(ctx context.Context, r *result.Probe, conn net.Conn, host, addr string, o Options) (*tls.Conn, error) {
	cfg := o.TLS
	if cfg == nil {
		cfg = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	cfg = cfg.Clone()
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	tc := tls.Client(conn, cfg)
	start := time.Now()
	if err := tc.HandshakeContext(ctx); err != nil {
		if why := tlsconf.Explain(err); why != "" {
			return nil, fmt.Errorf("tls handshake with %s: %s (%w)", addr, why, err)
		}
		return nil, fmt.Errorf("tls handshake with %s: %w", addr, err)
	}
	r.TLSHandshakeMs = ms(time.Since(start))
	r.TLSVersion = tls.VersionName(tc.ConnectionState().Version)
	return tc, nil
}

// ParseTarget reads an http(s) URL, tls://HOST:PORT or HOST:PORT and
// returns the URL (nil for HOST:PORT) and the address to dial.
func ParseTarget(target string) (*url.URL, string, error) {
	if !strings.Contains(target, "://") {
		host, port, err := net.SplitHostPort(target)
		if err != nil || host == "" || port == "" {
			return nil, "", fmt.Errorf("target %q: want an http(s) URL, tls://HOST:PORT or HOST:PORT", target)
		}
		return nil, target, nil
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "tls") || u.Hostname() == "" ||
		(u.Scheme == "tls" && (u.Port() == "" || (u.Path != "" && u.Path != "/"))) {
		return nil, "", fmt.Errorf("target %q: want an http(s) URL, tls://HOST:PORT or HOST:PORT", target)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	if _, _, err := net.SplitHostPort(addr); err != nil || strings.ContainsAny(u.Hostname(), "[]") {
		return nil, "", fmt.Errorf("target %q: want an http(s) URL or HOST:PORT", target)
	}
	return u, addr, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// connects times TCP connections to addr.
func connects(ctx context.Context, r *result.Probe, addr string, o Options) error {
	d := net.Dialer{Timeout: o.Timeout}
	for range o.Connects {
		start := time.Now()
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return fmt.Errorf("tcp connect to %s: %w", addr, err)
		}
		r.ConnectMs = append(r.ConnectMs, ms(time.Since(start)))
		c.Close()
	}
	s := slices.Sorted(slices.Values(r.ConnectMs))
	r.ConnectMedianMs = s[len(s)/2]
	return nil
}

// roundTrip times a TLS handshake (https) and then one GET of the URL on
// that connection.
func roundTrip(ctx context.Context, r *result.Probe, u *url.URL, addr string, o Options) error {
	d := net.Dialer{Timeout: o.Timeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("tcp connect to %s: %w", addr, err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * o.Timeout))
	if u.Scheme == "https" {
		tc, err := handshake(ctx, r, conn, u.Hostname(), addr, o)
		if err != nil {
			return err
		}
		conn = tc
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Errorf("http request to %s: %w", u.Redacted(), err)
	}
	for k, v := range o.Header {
		req.Header[k] = v
	}
	start := time.Now()
	if err := req.Write(conn); err != nil {
		return fmt.Errorf("http round trip to %s: %w", u.Redacted(), err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		return fmt.Errorf("http round trip to %s: %w", u.Redacted(), err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	r.RoundTripMs = ms(time.Since(start))
	r.HTTPStatus = resp.StatusCode
	return nil
}

// bulk posts BulkBytes to the sink over one connection and times it until
// the sink says how much it read.
func bulk(ctx context.Context, o Options) (*result.ProbeBulk, error) {
	u, _, err := ParseTarget(o.Sink)
	if err != nil || u == nil {
		return nil, fmt.Errorf("sink %q: want the http(s) URL of a vesload serve --sink listener", o.Sink)
	}
	client := &http.Client{Timeout: o.Timeout + time.Duration(o.BulkBytes/(1<<20))*time.Second,
		Transport: &http.Transport{TLSClientConfig: o.TLS, DisableCompression: true}}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), io.LimitReader(zeros{}, o.BulkBytes))
	if err != nil {
		return nil, fmt.Errorf("sink %s: %w", u.Redacted(), err)
	}
	req.ContentLength = o.BulkBytes
	req.Header.Set("Content-Type", "application/octet-stream")
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("bulk transfer to %s: %w", u.Redacted(), err)
	}
	defer resp.Body.Close()
	var reply SinkReply
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&reply) != nil {
		return nil, fmt.Errorf("bulk transfer to %s: answered %s, not a vesload sink", u.Redacted(), resp.Status)
	}
	secs := time.Since(start).Seconds()
	if reply.Bytes != o.BulkBytes {
		return nil, fmt.Errorf("bulk transfer to %s: the sink read %d of %d bytes", u.Redacted(), reply.Bytes, o.BulkBytes)
	}
	return &result.ProbeBulk{Sink: u.Redacted(), Bytes: reply.Bytes, Seconds: secs, MBps: float64(reply.Bytes) / secs / 1e6}, nil
}

// zeros is an endless source of zero bytes: the payload of a bulk
// transfer costs no memory.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
