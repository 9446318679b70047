package rest

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"net"
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
	// Pool is the number of connections: the engine never has more
	// requests in flight, so a sender always finds one free.
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
	URL     string
	Headers []transport.Header
}

// Transport sends VES REST requests over a bounded fasthttp pool.
type Transport struct {
	o      Options
	target target
	tls    *tls.Config
	client *fasthttp.HostClient
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
	tc, err := o.TLS.Client(t.host)
	if err != nil {
		return nil, err
	}
	open := o.Dial
	if open == nil {
		timeout := min(o.Timeout, 10*time.Second)
		open = func(addr string) (net.Conn, error) { return fasthttp.DialTimeout(addr, timeout) }
	}
	// Every TCP connection of the pool, however it was opened, reads and
	// writes through raw system calls (docs/ARCHITECTURE.md, "CPU per
	// request"); Wrap leaves other connections as they are. An https
	// connection completes its handshake here, so that the time to open
	// it includes TLS, as JMeter's Connect does, and its metered bytes
	// are those of HTTP, headers included.
	dial := func(addr string) (net.Conn, error) {
		start := time.Now()
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
		return newMeteredConn(c, time.Since(start)), nil
	}
	warm := newWarmDialer(dial, o.Pool)
	tr := &Transport{o: o, target: t, tls: tc, warm: warm, client: newHostClient(t, tc, &o, warm.Dial)}
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

// Close implements transport.Transport.
func (t *Transport) Close() {
	t.warm.close()
	t.client.CloseIdleConnections()
}

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
// per kind), response and buffers are reused, so a request costs no
// allocation in steady state.
func (t *Transport) NewSender() (transport.Sender, func()) {
	s := &sender{t: t, reqs: make([]*fasthttp.Request, len(t.o.Kinds)), resp: fasthttp.AcquireResponse()}
	for i := range t.o.Kinds {
		s.reqs[i] = t.newRequest(&t.o.Kinds[i])
	}
	return s, func() {
		for _, r := range s.reqs {
			fasthttp.ReleaseRequest(r)
		}
		fasthttp.ReleaseResponse(s.resp)
	}
}

// newRequest prepares the reusable request of one kind: everything but
// the body is set once.
func (t *Transport) newRequest(k *Kind) *fasthttp.Request {
	req := fasthttp.AcquireRequest()
	req.SetRequestURI(k.URL)
	req.Header.SetMethod(t.o.Method)
	req.Header.SetContentType("application/json")
	for _, h := range t.header {
		req.Header.Set(h.Name, h.Value)
	}
	for _, h := range k.Headers {
		req.Header.Set(h.Name, h.Value)
	}
	if !t.o.KeepAlive {
		req.SetConnectionClose()
	}
	return req
}

// sender is one worker's side of the transport.
type sender struct {
	t    *Transport
	reqs []*fasthttp.Request
	resp *fasthttp.Response
}

// Send implements transport.Sender: write, read, classify.
func (s *sender) Send(r *transport.Request, o *transport.Outcome) {
	req := s.reqs[r.Kind]
	req.SetBodyRaw(r.Body)
	req.SetTimeout(s.t.o.Timeout)
	o.Written = time.Now()
	err := s.t.client.Do(req, s.resp)
	o.Done = time.Now()
	o.Class, o.Code, o.MessageID, o.BytesSent, o.BytesRecv = transport.OK, 0, "", 0, 0
	o.Connect, o.FirstByte = 0, time.Time{}
	// The bytes on the wire, headers included, and the connection's
	// times, as the connection counted them for this exchange.
	var x exchangeFigures
	if figures(s.resp.LocalAddr(), &x) {
		o.BytesSent, o.BytesRecv, o.Connect, o.FirstByte = x.sent, x.recv, x.connect, x.firstByte
	}
	if err != nil {
		o.Class = classifyError(err)
	} else {
		o.Code = int32(s.resp.StatusCode())
		body := s.resp.Body()
		if !s.t.o.Expect.OK(int(o.Code)) {
			o.Class = transport.HTTP
			if id := messageID(body); id != nil {
				o.MessageID = string(id)
			}
		}
	}
	if o.Class != transport.OK && s.t.fails != nil {
		s.t.fails.observe(o, req, s.resp, err)
	}
	s.resp.Reset()
}
