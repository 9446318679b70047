package testserver

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"hash/maphash"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"github.com/vesload/vesload/internal/inputfile"
)

// Server is a running VES collector emulator. Its methods are safe for
// concurrent use.
type Server struct {
	opts     settings
	hooks    hooks
	srv      *fasthttp.Server
	ln       net.Listener
	plainLn  net.Listener // the HTTP port of an HTTPS emulator, or nil
	scheme   string
	auth     authenticator
	started  time.Time
	quit     chan struct{}
	served   chan error
	counters counters
	backend  *backend
	ids      *idSet
	arrivals *arrivals // nil unless Options.RecordArrivals
	replies  replies
	versions map[string]*ruleset
	checkers sync.Pool
	seed     maphash.Seed
	dice     dice
	metrics  fasthttp.RequestHandler
	lastWarn atomic.Int64 // unix nanos of the last saturation log line

	closeOnce sync.Once
	closeErr  error
}

// hooks let tests replace what would otherwise need real time.
type hooks struct {
	// publish, when set, is called instead of holding a backend
	// connection for PublishTime.
	publish func(quit <-chan struct{})
}

// Start listens on opts.Addr and serves in the background until Close.
func Start(opts Options) (*Server, error) {
	return start(opts, hooks{})
}

func start(opts Options, h hooks) (*Server, error) {
	st, err := opts.normalise()
	if err != nil {
		return nil, fmt.Errorf("testserver options: %w", err)
	}
	var tlsConfig *tls.Config
	if st.TLSCertFile != "" {
		cert, err := inputfile.KeyPair(st.TLSCertFile, st.TLSKeyFile)
		if err != nil {
			return nil, fmt.Errorf("load TLS certificate %s and key %s: %w", st.TLSCertFile, st.TLSKeyFile, err)
		}
		tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12,
			NextProtos: []string{"http/1.1"}}
		if err := clientCertificates(tlsConfig, st.ClientCAFile); err != nil {
			return nil, err
		}
	}
	auth, err := newAuthenticator(st)
	if err != nil {
		return nil, err
	}
	s := newServer(st, h)
	s.auth = auth
	if st.Logf != nil {
		st.Logf("%s", st.notice)
	}
	if err := s.listen(tlsConfig); err != nil {
		return nil, err
	}
	go func() { s.served <- s.srv.Serve(s.ln) }()
	if s.plainLn != nil {
		go func() { _ = s.srv.Serve(s.plainLn) }() // ends with the server's shutdown
	}
	return s, nil
}

// clientCertificates makes cfg ask for a client certificate and verify
// one signed by the authorities in caFile, when given; a client without
// one still connects (and then needs basic auth).
func clientCertificates(cfg *tls.Config, caFile string) error {
	if caFile == "" {
		return nil
	}
	pem, err := inputfile.ReadFile(caFile, "client CA file", inputfile.Cert)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return fmt.Errorf("client CA file %s: no PEM certificate found", caFile)
	}
	cfg.ClientCAs, cfg.ClientAuth = pool, tls.VerifyClientCertIfGiven
	return nil
}

func newServer(st settings, h hooks) *Server {
	s := &Server{
		opts:     st,
		hooks:    h,
		scheme:   "http",
		quit:     make(chan struct{}),
		served:   make(chan error, 1),
		ids:      newIDSet(st.DuplicateWindow),
		replies:  newReplies(st.legacy),
		versions: apiVersions(),
		seed:     maphash.MakeSeed(),
		dice:     newDice(st.Seed),
	}
	if st.PublishTime > 0 {
		s.backend = newBackend(st.BackendPool, st.BackendQueue)
	}
	if st.RecordArrivals {
		s.arrivals = newArrivals()
	}
	s.checkers.New = func() any {
		return &checker{seed: s.seed, enforce: !st.NoValidate}
	}
	s.srv = &fasthttp.Server{
		Handler:               s.handle,
		ErrorHandler:          s.handleError,
		Concurrency:           256 * 1024,
		ReadBufferSize:        16 << 10,
		ReadTimeout:           30 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           60 * time.Second,
		MaxRequestBodySize:    st.MaxBodyBytes,
		NoDefaultServerHeader: true,
		NoDefaultContentType:  true,
		CloseOnShutdown:       true,
		Logger:                logger(st.Logf),
	}
	return s
}

// listen opens the listener and builds what needs it (the metrics
// handler, the start time the stall is measured from).
func (s *Server) listen(tlsConfig *tls.Config) error {
	s.metrics = fasthttpadaptor.NewFastHTTPHandler(newMetricsHandler(s))
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.opts.Addr, err)
	}
	if tlsConfig != nil {
		ln = tls.NewListener(ln, tlsConfig)
		s.scheme = "https"
	}
	if s.opts.HTTPAddr != "" {
		if s.plainLn, err = net.Listen("tcp", s.opts.HTTPAddr); err != nil {
			_ = ln.Close()
			return fmt.Errorf("listen on %s: %w", s.opts.HTTPAddr, err)
		}
	}
	s.ln = ln
	s.started = time.Now()
	return nil
}

// Addr returns the address the emulator listens on, with the real port
// when Options.Addr asked for port 0.
func (s *Server) Addr() string {
	return s.ln.Addr().String()
}

// PlainURL returns the base URL of the HTTP port of an HTTPS emulator
// (Options.HTTPAddr), or "" without one.
func (s *Server) PlainURL() string {
	if s.plainLn == nil {
		return ""
	}
	return "http://" + loopbackAddr(s.plainLn.Addr().String())
}

// URL returns the base URL clients use, e.g. "http://127.0.0.1:40123".
// An unspecified listen address (0.0.0.0, ::) is given as loopback, so
// the URL works from the same host.
func (s *Server) URL() string {
	return s.scheme + "://" + loopbackAddr(s.Addr())
}

// loopbackAddr gives an unspecified listen address (0.0.0.0, ::) as
// loopback, so that a URL made of it works from the same host.
func loopbackAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip.To4() == nil {
			host = "::1"
		}
	}
	return net.JoinHostPort(host, port)
}

// Stats returns a snapshot of the counters.
func (s *Server) Stats() Stats {
	st := s.counters.snapshot()
	inUse, waiting := s.backendState()
	st.BackendInUse, st.BackendWaiting = int64(inUse), int64(waiting)
	if s.arrivals != nil {
		st.ArrivalGaps = s.arrivals.summary()
	}
	return st
}

func (s *Server) backendState() (inUse, waiting int) {
	if s.backend == nil {
		return 0, 0
	}
	return s.backend.state()
}

// Close stops listening, cuts short any latency, stall or backend wait
// in progress, and waits up to Options.CloseTimeout for handlers to
// finish. It is safe to call more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.quit)
		ctx, cancel := context.WithTimeout(context.Background(), s.opts.CloseTimeout)
		defer cancel()
		err := s.srv.ShutdownWithContext(ctx)
		// A Close right after Start can come before Serve took the
		// listener, which Shutdown then does not know of: closing it here
		// makes that Serve return at once instead of serving forever.
		if cerr := s.ln.Close(); cerr != nil && !errors.Is(cerr, net.ErrClosed) && err == nil {
			err = cerr
		}
		if serr := <-s.served; serr != nil && !errors.Is(serr, net.ErrClosed) && err == nil {
			err = serr
		}
		if err != nil {
			s.closeErr = fmt.Errorf("close VES emulator on %s: %w", s.Addr(), err)
		}
	})
	return s.closeErr
}

// logf writes a log line when a logger was given.
func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// warnSaturated logs the collector's saturation message at most once a
// second, so that an overload does not flood the log.
func (s *Server) warnSaturated() {
	now := time.Now().UnixNano()
	last := s.lastWarn.Load()
	if now-last < int64(time.Second) || !s.lastWarn.CompareAndSwap(last, now) {
		return
	}
	s.logf("backend: Pending acquire queue has reached its maximum size of %d (%d rejected so far)",
		s.opts.BackendQueue, s.counters.backendRejected.Load())
}

// logger adapts Logf to fasthttp's Logger.
type logger func(format string, args ...any)

func (l logger) Printf(format string, args ...any) {
	if l != nil {
		l(format, args...)
	}
}

// errClosed is returned by waits cut short by Close.
var errClosed = errors.New("emulator closed")

// sleep waits for d, or until Close.
func (s *Server) sleep(d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-s.quit:
		return errClosed
	}
}
