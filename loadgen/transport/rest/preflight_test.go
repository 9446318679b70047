package rest

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/tlsconf"
)

// A client certificate the server does not trust fails the preflight with
// the server's reason, not "certificate required", and before any load.
func TestPreflightNamesAnUntrustedClientCertificate(t *testing.T) {
	t.Parallel()
	srvCertFile, srvKeyFile, srvPool := testcert.Write(t)
	srvCert, err := tls.LoadX509KeyPair(srvCertFile, srvKeyFile)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{srvCert}, ClientCAs: srvPool, ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	defer srv.Close()
	otherCert, otherKey, _ := testcert.Write(t)
	url := "https://" + strings.TrimPrefix(srv.URL, "https://") + "/eventListener/v7"
	tests := []struct {
		name string
		o    tlsconf.Options
		want string
	}{
		{"client certificate of another CA", tlsconf.Options{CAFile: srvCertFile, CertFile: otherCert, KeyFile: otherKey}, "unknown certificate authority (the server does not trust its CA)"},
		{"no client certificate", tlsconf.Options{CAFile: srvCertFile}, "requires a client certificate and got none"},
		{"server of an unknown authority", tlsconf.Options{}, "unknown authority: give its CA with --cacert"},
	}
	for _, tc := range tests {
		tr, err := New(Options{URL: url, Pool: 1, Timeout: 5 * time.Second, TLS: tc.o, Kinds: []Kind{{URL: url}}})
		if err != nil {
			t.Fatal(err)
		}
		err = tr.Preflight(context.Background())
		tr.Close()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: preflight error %v, want %q", tc.name, err, tc.want)
		}
	}
}
