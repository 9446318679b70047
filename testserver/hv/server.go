package hv

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/vesload/vesload/internal/inputfile"
)

// Message is one accepted VesEvent, handed to Options.OnMessage.
type Message struct {
	Client     string // remote address of the connection
	Domain     string
	Topic      string // the route's output topic
	EventID    string
	SourceName string
	Payload    []byte // the whole VesEvent, as received
	Received   time.Time
}

// Server is a running HV-VES emulator. Its methods are safe for
// concurrent use.
type Server struct {
	opts    Options
	ln      net.Listener
	tls     bool
	started time.Time
	st      *state
	wg      sync.WaitGroup
	// limit paces the messages handled (Options.ProcessRate); nil: none.
	limit *rate.Limiter

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

// Start listens on opts.Addr and serves in the background until Close.
func Start(opts Options) (*Server, error) {
	o, err := opts.normalise()
	if err != nil {
		return nil, fmt.Errorf("hv emulator options: %w", err)
	}
	tlsConfig, err := serverTLS(o)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("hv emulator: listen on %s: %w", o.Addr, err)
	}
	if tlsConfig != nil {
		ln = tls.NewListener(ln, tlsConfig)
	}
	s := &Server{opts: o, ln: ln, tls: tlsConfig != nil, started: o.Now(),
		st: newState(o.MaxTrackedIDs), conns: map[net.Conn]struct{}{}}
	if o.ProcessRate > 0 {
		// A burst of 10 ms of work: producers' own timer jitter is not
		// taken for overload, a rate above the limit is within a second.
		s.limit = rate.NewLimiter(rate.Limit(o.ProcessRate), max(1, int(o.ProcessRate/100)))
	}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// serverTLS builds the listener's TLS settings: a client certificate is
// required and verified when a client CA is given.
func serverTLS(o Options) (*tls.Config, error) {
	if o.TLSCertFile == "" {
		return nil, nil
	}
	cert, err := inputfile.KeyPair(o.TLSCertFile, o.TLSKeyFile)
	if err != nil {
		return nil, fmt.Errorf("hv emulator: load TLS certificate %s and key %s: %w", o.TLSCertFile, o.TLSKeyFile, err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if o.ClientCAFile != "" {
		pem, err := inputfile.ReadFile(o.ClientCAFile, "client CA file", inputfile.Cert)
		if err != nil {
			return nil, fmt.Errorf("hv emulator: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("hv emulator: client CA %s: no PEM certificate found", o.ClientCAFile)
		}
		cfg.ClientCAs, cfg.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}

// Addr is the address the emulator listens on, with the real port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// TLS reports whether the listener speaks TLS.
func (s *Server) TLS() bool { return s.tls }

// Close stops accepting, closes every connection and waits for their
// goroutines. It is safe to call more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	err := s.ln.Close()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return // closed
		}
		if !s.track(c) {
			c.Close()
			return
		}
		s.wg.Add(1)
		go s.serve(c)
	}
}

// track registers a connection so that Close can end it.
func (s *Server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}
