package testserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// SinkPath is where a sink takes bulk transfers.
const SinkPath = "/sink"

// maxSinkBytes bounds one bulk transfer.
const maxSinkBytes = 8 << 30

// SinkHandler reads and discards a POSTed body and answers how many bytes
// it read, as JSON {"bytes": N}: the far end of `vesload probe`'s bulk
// throughput measurement. It is separate from the collector emulator's
// routes so that the emulator's counters see none of it.
func SinkHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != SinkPath {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST a body to measure throughput", http.StatusMethodNotAllowed)
			return
		}
		n, err := io.Copy(io.Discard, io.LimitReader(r.Body, maxSinkBytes))
		if err != nil {
			http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(struct {
			Bytes int64 `json:"bytes"`
		}{n})
	})
}

// Sink is a running sink listener.
type Sink struct {
	srv *http.Server
	ln  net.Listener
	err chan error
}

// StartSink listens on addr and serves SinkHandler until Close.
func StartSink(addr string) (*Sink, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("sink: listen on %s: %w", addr, err)
	}
	s := &Sink{srv: &http.Server{Handler: SinkHandler(), ReadHeaderTimeout: 10 * time.Second}, ln: ln, err: make(chan error, 1)}
	go func() { s.err <- s.srv.Serve(ln) }()
	return s, nil
}

// URL is the URL probes post to.
func (s *Sink) URL() string { return "http://" + s.ln.Addr().String() + SinkPath }

// Close stops the sink.
func (s *Sink) Close() error {
	err := s.srv.Close()
	if serr := <-s.err; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
