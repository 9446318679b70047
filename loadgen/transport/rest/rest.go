package rest

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/vesload/vesload/internal/expect"
	"github.com/vesload/vesload/internal/rawconn"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/transport"
)

// Options configure the REST transport of one run.
type Options struct {
	// URL names the target (scheme, host, port); each Kind has its own
	// full URL on that target.
	URL       string
	Method    string
	UserAgent string
	Headers   []transport.Header
	User      string
	Password  string // sent as basic auth; never logged
	TLS       tlsconf.Options
	// Kinds are the requests of the mix, indexed by Request.Kind.
	Kinds []Kind
	// Pool is the number of connections: one per sender, and the engine
	// runs one sender per connection of its pool.
	Pool      int
	Timeout   time.Duration // per request
	KeepAlive bool
	// Expect is the set of statuses that count as success (2xx when
	// zero): ONAP's plans assert 202, so a 200 is then an error, http_200.
	Expect expect.Statuses
	// Dial, when set, opens connections instead of TCP to the URL's host
	// (in-memory listeners in benchmarks, Unix sockets).
	Dial func(addr string) (net.Conn, error)
	// LogFailure, when set, is handed the first failing exchange of each
	// error class (each status for http): request and response with
	// credentials hidden and bodies cut to 2 KiB.
	LogFailure func(string)
}

// Kind is one request of the mix: its URL and extra headers.
type Kind struct {
	// Name says which request of the mix a refusal is about.
	Name string
	// URL must have the scheme and host of Options.URL: one connection
	// pool serves the whole mix.
	URL     string
	Headers []transport.Header
}

// checkKinds refuses a kind whose URL is not on the target: the mix
// shares one pool of connections to one host.
func checkKinds(target string, kinds []Kind) error {
	base, err := url.Parse(target)
	if err != nil {
		return fmt.Errorf("url %q: %w", target, err)
	}
	for i, k := range kinds {
		name := k.Name
		if name == "" {
			name = strconv.Itoa(i + 1)
		}
		u, err := url.Parse(k.URL)
		switch {
		case err != nil:
			return fmt.Errorf("request %q: url: %w", name, err)
		case u.Scheme != base.Scheme || u.Host != base.Host:
			return fmt.Errorf("request %q: %s://%s is not the target %s://%s (one mix, one target)", name, u.Scheme, u.Host, base.Scheme, base.Host)
		}
	}
	return nil
}

// String names the target for logs: its host and port, never its
// credentials.
func (t *Transport) String() string { return t.target.addr }

// Transport sends VES REST requests, each sender over a connection of
// its own: the engine's pool is the only pool (docs/ARCHITECTURE.md,
// "Transport").
type Transport struct {
	o      Options
	target target
	tls    *tls.Config
	warm   *warmDialer
	header []transport.Header // Options.Headers plus the Authorization header
	fails  *failureLog        // nil without Options.LogFailure
}

var _ transport.Transport = (*Transport)(nil)

// New checks the target (an http or https URL with a host) and prepares
// the client; it does not touch the network. An empty Method is POST, an
// empty UserAgent "vesload". The engine never calls it: the command that
// runs the engine builds the transport and hands it over in
// engine.Config.Transport.
func New(o Options) (*Transport, error) {
	if o.Method == "" {
		o.Method = fasthttp.MethodPost
	}
	if o.UserAgent == "" {
		o.UserAgent = "vesload"
	}
	t, err := parseTarget(o.URL)
	if err != nil {
		return nil, err
	}
	if len(o.Kinds) == 0 {
		o.Kinds = []Kind{{URL: o.URL}}
	}
	if err := checkKinds(o.URL, o.Kinds); err != nil {
		return nil, err
	}
	tc, err := o.TLS.Client(t.host)
	if err != nil {
		return nil, err
	}
	open := o.Dial
	if open == nil {
		timeout := min(o.Timeout, 10*time.Second)
		open = func(addr string) (net.Conn, error) { return fasthttp.DialTimeout(addr, timeout) }
	}
	// Every TCP connection, however it was opened, reads and writes
	// through raw system calls (docs/ARCHITECTURE.md, "CPU per request");
	// Wrap leaves other connections as they are. An https connection
	// completes its handshake here, so that the time to open it includes
	// TLS, as JMeter's Connect does, and its counted bytes are those of
	// HTTP, headers included.
	dial := func(addr string) (net.Conn, error) {
		c, err := open(addr)
		if err != nil {
			return nil, err
		}
		c = rawconn.Wrap(c)
		if t.isTLS {
			if c, err = handshake(c, tc, min(o.Timeout, 10*time.Second)); err != nil {
				return nil, err
			}
		}
		return c, nil
	}
	tr := &Transport{o: o, target: t, tls: tc, warm: newWarmDialer(dial, o.Pool)}
	tr.header = append([]transport.Header(nil), o.Headers...)
	if o.User != "" || o.Password != "" {
		token := base64.StdEncoding.EncodeToString([]byte(o.User + ":" + o.Password))
		tr.header = append(tr.header, transport.Header{Name: "Authorization", Value: "Basic " + token})
	}
	if o.LogFailure != nil {
		tr.fails = &failureLog{log: o.LogFailure}
	}
	return tr, nil
}

// Preflight implements transport.Transport.
func (t *Transport) Preflight(ctx context.Context) error {
	return preflight(ctx, t.target, t.tls, t.o.Timeout, t.o.Dial)
}

// Warm implements transport.Transport.
func (t *Transport) Warm(n int) { t.warm.warm(t.target.addr, n) }

// Close implements transport.Transport: it shuts the connections opened
// ahead that no sender took; each sender's release shuts its own.
func (t *Transport) Close() { t.warm.close() }

// handshake completes the TLS handshake of a new connection within
// timeout.
func handshake(c net.Conn, tc *tls.Config, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tconn := tls.Client(c, tc)
	if err := tconn.HandshakeContext(ctx); err != nil {
		_ = c.Close()
		return nil, err
	}
	return tconn, nil
}

// Addr is the target's host:port, for messages.
func (t *Transport) Addr() string { return t.target.addr }

// NewSender implements transport.Transport. The sender's requests (one
// per kind), response, connection buffers and counters are reused, so a
// request costs no allocation in steady state.
func (t *Transport) NewSender() (transport.Sender, func()) {
	s := &sender{t: t, reqs: make([]*fasthttp.Request, len(t.o.Kinds)), resp: fasthttp.AcquireResponse()}
	s.br = bufio.NewReaderSize(&s.wire, readBufferSize)
	s.bw = bufio.NewWriterSize(&s.wire, writeBufferSize)
	for i := range t.o.Kinds {
		s.reqs[i] = t.newRequest(&t.o.Kinds[i])
	}
	return s, func() {
		s.hangUp()
		for _, r := range s.reqs {
			fasthttp.ReleaseRequest(r)
		}
		fasthttp.ReleaseResponse(s.resp)
	}
}

const (
	// readBufferSize bounds a response's status line and headers.
	readBufferSize = 16 << 10
	// writeBufferSize holds a request of up to 16 KiB, headers included,
	// so that it leaves in one write.
	writeBufferSize = 16 << 10
	// maxResponseBody bounds a response's body: more is too_large.
	maxResponseBody = 4 << 20
	// maxIdle is how long a kept-alive connection may stay unused before
	// a sender opens a new one rather than write on it: servers close
	// idle connections, and a POST on one the server has closed fails.
	maxIdle = time.Minute
)

// newRequest prepares the reusable request of one kind: everything but
// the body is set once.
func (t *Transport) newRequest(k *Kind) *fasthttp.Request {
	req := fasthttp.AcquireRequest()
	req.SetRequestURI(k.URL)
	req.URI().DisablePathNormalizing = true
	req.Header.SetMethod(t.o.Method)
	req.Header.SetContentType("application/json")
	req.Header.SetUserAgent(t.o.UserAgent)
	for _, h := range t.header {
		req.Header.Set(h.Name, h.Value)
	}
	for _, h := range k.Headers {
		req.Header.Set(h.Name, h.Value)
	}
	// A Host header given is sent as written, as the result records it;
	// the connection is still made to the URL's address.
	req.UseHostHeader = len(req.Header.Host()) > 0
	if !t.o.KeepAlive {
		req.SetConnectionClose()
	}
	return req
}

// sender is one worker's side of the transport, with the worker's own
// connection: fasthttp's request writer and response reader run on it,
// so a request's bytes, time to connect and first byte are counted where
// they happen.
type sender struct {
	t    *Transport
	reqs []*fasthttp.Request
	resp *fasthttp.Response
	wire wire          // the connection, nil until needed and after a failure or a closing answer
	used time.Time     // when the connection last finished an exchange
	br   *bufio.Reader // on wire
	bw   *bufio.Writer // on wire
}

// Send implements transport.Sender: write, read, classify.
func (s *sender) Send(r *transport.Request, o *transport.Outcome) {
	req := s.reqs[r.Kind]
	req.SetBodyRaw(r.Body)
	o.Class, o.Code, o.MessageID, o.BytesSent, o.BytesRecv = transport.OK, 0, "", 0, 0
	o.Connect, o.FirstByte = 0, time.Time{}
	o.Written = time.Now()
	err := s.exchange(req, o)
	o.Done = time.Now()
	if err != nil {
		o.Class = classifyError(err)
	} else {
		o.Code = int32(s.resp.StatusCode())
		if !s.t.o.Expect.OK(int(o.Code)) {
			o.Class = transport.HTTP
			if id := messageID(s.resp.Body()); id != nil {
				o.MessageID = string(id)
			}
		}
	}
	if o.Class != transport.OK && s.t.fails != nil {
		s.t.fails.observe(o, req, s.resp, err)
	}
	s.resp.Reset()
}

// exchange writes req on the sender's connection, opening one first when
// it has none, and reads the answer into s.resp within the request
// timeout. It fills o's wire figures: the bytes, the time to connect for
// the request that opened the connection, the first byte.
func (s *sender) exchange(req *fasthttp.Request, o *transport.Outcome) error {
	if s.wire.conn != nil && o.Written.Sub(s.used) > maxIdle {
		s.hangUp()
	}
	if s.wire.conn == nil {
		c, took, err := s.t.warm.Dial(s.t.target.addr)
		if err != nil {
			return err
		}
		s.wire.conn = c
		s.br.Reset(&s.wire)
		s.bw.Reset(&s.wire)
		o.Connect = took
	}
	s.wire.begin()
	err := s.wire.conn.SetDeadline(o.Written.Add(s.t.o.Timeout))
	if err == nil {
		err = req.Write(s.bw)
	}
	if err == nil {
		err = s.bw.Flush()
	}
	if err == nil {
		s.resp.SkipBody = req.Header.IsHead()
		err = s.resp.ReadLimitBody(s.br, maxResponseBody)
	}
	o.BytesSent, o.BytesRecv, o.FirstByte = s.wire.sent, s.wire.recv, s.wire.firstByte
	if err != nil || req.ConnectionClose() || s.resp.ConnectionClose() {
		s.hangUp()
	} else {
		s.used = time.Now()
	}
	if err == io.EOF {
		// The server closed the connection before the first byte of an
		// answer, as fasthttp's client says it.
		err = fasthttp.ErrConnectionClosed
	}
	return err
}

// hangUp closes the sender's connection, if it has one.
func (s *sender) hangUp() {
	if s.wire.conn != nil {
		_ = s.wire.conn.Close()
		s.wire.conn = nil
	}
}
