package probe

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vesload/vesload/testserver"
)

func TestProbeHTTPAndSink(t *testing.T) {
	t.Parallel()
	emu, err := testserver.Start(testserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	sink, err := testserver.StartSink("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	r, err := Run(context.Background(), Options{Target: emu.URL() + "/healthcheck", Connects: 3, Sink: sink.URL(), BulkBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ConnectMs) != 3 || r.ConnectMedianMs <= 0 || r.HTTPStatus != 200 || r.RoundTripMs <= 0 || r.TLSVersion != "" {
		t.Errorf("report %+v", r)
	}
	if b := r.Bulk; b == nil || b.Bytes != 4<<20 || b.Seconds <= 0 || b.MBps <= 0 {
		t.Errorf("bulk %+v, want 4 MiB measured", r.Bulk)
	}
	if emu.Stats().Requests != 1 {
		t.Errorf("the emulator saw %d requests, want the one round trip", emu.Stats().Requests)
	}
}

func TestProbeTLS(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusMethodNotAllowed) }))
	defer srv.Close()
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	r, err := Run(context.Background(), Options{Target: srv.URL + "/eventListener/v7", Connects: 1, TLS: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}})
	if err != nil {
		t.Fatal(err)
	}
	if r.TLSHandshakeMs <= 0 || !strings.HasPrefix(r.TLSVersion, "TLS 1.") || r.HTTPStatus != http.StatusMethodNotAllowed {
		t.Errorf("report %+v", r)
	}
	// Verification is on: without the test CA the handshake fails.
	if _, err := Run(context.Background(), Options{Target: srv.URL, Connects: 1}); err == nil || !strings.Contains(err.Error(), "tls handshake") {
		t.Errorf("unverified server: error %v", err)
	}
}

func TestProbeFailures(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	emu, err := testserver.Start(testserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	tests := []struct {
		o    Options
		want string
	}{
		{Options{Target: closed}, "tcp connect to " + closed},
		{Options{Target: "http://" + closed + "/"}, "tcp connect to " + closed},
		{Options{Target: emu.URL(), Sink: emu.URL() + "/eventListener/v7", BulkBytes: 1 << 10}, "not a vesload sink"},
		{Options{Target: "ftp://x"}, "want an http(s) URL, tls://HOST:PORT or HOST:PORT"},
		{Options{Target: "nohost"}, "want an http(s) URL, tls://HOST:PORT or HOST:PORT"},
	}
	for _, tt := range tests {
		tt.o.Timeout = 2 * time.Second
		_, err := Run(context.Background(), tt.o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want %q", tt.o, err, tt.want)
		}
	}
}

func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"http://h:1/x", "https://h", "h:80", ":80", "h:", "ftp://h", "http://[::1]:8080/", "%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, addr, err := ParseTarget(s)
		if err != nil {
			return
		}
		if _, _, err := net.SplitHostPort(addr); err != nil {
			t.Fatalf("%q gave address %q: %v", s, addr, err)
		}
		if u != nil && u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "tls" {
			t.Fatalf("%q accepted with scheme %q", s, u.Scheme)
		}
	})
}

// A TLS listener that speaks no HTTP (HV-VES over TLS) is probed as
// tls://HOST:PORT, or as HOST:PORT with UseTLS (a CA or certificate
// given): the handshake is timed and no HTTP request is sent.
func TestProbeTLSListener(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { requests.Add(1) }))
	defer srv.Close()
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	cfg := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12, ServerName: "example.com"}
	addr := strings.TrimPrefix(srv.URL, "https://")
	for _, o := range []Options{
		{Target: "tls://" + addr, Connects: 2, TLS: cfg},
		{Target: addr, Connects: 2, TLS: cfg, UseTLS: true},
	} {
		r, err := Run(context.Background(), o)
		if err != nil {
			t.Fatalf("%s: %v", o.Target, err)
		}
		if len(r.ConnectMs) != 2 || r.TLSHandshakeMs <= 0 || !strings.HasPrefix(r.TLSVersion, "TLS 1.") || r.HTTPStatus != 0 {
			t.Errorf("%s: report %+v, want a handshake and no HTTP", o.Target, r)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the listener got %d HTTP requests", n)
	}
}

// A failing step still returns what the steps before it measured.
func TestProbeFailureKeepsWhatWasMeasured(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // accepts and hangs up: a plaintext peer for a TLS client
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	defer wg.Wait()
	defer ln.Close()
	for _, target := range []string{"tls://" + ln.Addr().String(), "https://" + ln.Addr().String() + "/"} {
		r, err := Run(context.Background(), Options{Target: target, Connects: 3, Timeout: 2 * time.Second})
		if err == nil || !strings.Contains(err.Error(), "tls handshake") {
			t.Errorf("%s: error %v, want the handshake's", target, err)
		}
		if r == nil || len(r.ConnectMs) != 3 || r.ConnectMedianMs <= 0 {
			t.Errorf("%s: report %+v, want the 3 connects measured", target, r)
		}
	}
}
