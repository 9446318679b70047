package engine

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/tlsconf"
)

func TestTLSVerification(t *testing.T) {
	t.Parallel()
	certFile, keyFile, _ := testcert.Write(t)
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}}
	srv.StartTLS()
	t.Cleanup(srv.Close) // the parallel subtests outlive this function

	tests := []struct {
		name      string
		tls       tlsconf.Options
		preflight bool
		wantOK    bool
	}{
		{"trusted CA", tlsconf.Options{CAFile: certFile}, true, true},
		{"insecure on request", tlsconf.Options{Insecure: true}, true, true},
		{"unknown CA fails the preflight", tlsconf.Options{}, true, false},
		{"unknown CA is a tls error", tlsconf.Options{}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t, srv.URL, 10, 500*time.Millisecond)
			cfg.REST.TLS = tt.tls
			cfg.NoPreflight = !tt.preflight
			e, err := newREST(cfg)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run(context.Background())
			switch {
			case tt.wantOK && (err != nil || res.Requests.OK != 5):
				t.Fatalf("err %v result %+v", err, res)
			case !tt.wantOK && tt.preflight && err == nil:
				t.Fatal("a certificate from an unknown authority passed the preflight")
			case !tt.wantOK && !tt.preflight && (err != nil || res.Errors["tls"] != 5):
				t.Fatalf("err %v errors %v, want 5 tls errors", err, res.Errors)
			}
		})
	}
}
