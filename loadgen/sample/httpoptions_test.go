package sample

import (
	"context"
	"crypto/tls"
	"encoding/pem"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/tlsconf"
)

func TestParseEndpoint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		raw      string
		opts     HTTPOptions
		url      string // want, or empty when an error is expected
		user     string
		password string
		err      string
	}{
		{name: "plain", raw: "http://h:8080/actuator/prometheus", url: "http://h:8080/actuator/prometheus"},
		{name: "credentials moved out", raw: "https://ves:pw-Secr3t@h/m?x=1", url: "https://h/m?x=1", user: "ves", password: "pw-Secr3t"},
		{name: "options win", raw: "https://ves:pw-Secr3t@h/m", opts: HTTPOptions{User: "a", Password: "b"}, url: "https://h/m", user: "a", password: "b"},
		{name: "bad scheme", raw: "ftp://h/m", err: "scheme must be http or https"},
		{name: "bad scheme with credentials", raw: "ftp://ves:pw-Secr3t@h/m", err: "scheme must be http or https"},
		{name: "no host with credentials", raw: "http://ves:pw-Secr3t@/m", err: "no host"},
		{name: "no host", raw: "http:///m", err: "no host"},
		{name: "unparsable", raw: "http://h:x y/", err: "invalid URL"},
		{name: "unparsable with credentials", raw: "http://u:pw-Secr3t/x@h:99999999999999/", err: "may hold credentials"},
		{name: "broken userinfo", raw: "http://u:pw-Secr3t\x7f@h/", err: "may hold credentials"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ep, err := parseEndpoint(tt.raw, tt.opts)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want one containing %q", err, tt.err)
				}
				if strings.Contains(err.Error(), "Secr3t") {
					t.Errorf("error shows the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ep.url.String() != tt.url || ep.user != tt.user || ep.password != tt.password {
				t.Errorf("got %s %q %q; want %s %q %q", ep.url, ep.user, ep.password, tt.url, tt.user, tt.password)
			}
		})
	}
}

func TestTransportFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts HTTPOptions
		err  string
	}{
		{"missing CA", HTTPOptions{TLS: tlsconf.Options{CAFile: filepath.Join(dir, "none.pem")}}, "read CA file"},
		{"CA without PEM", HTTPOptions{TLS: tlsconf.Options{CAFile: notPEM}}, "no PEM certificate"},
		{"cert without key", HTTPOptions{TLS: tlsconf.Options{CertFile: notPEM}}, "needs a key file"},
		{"bad key pair", HTTPOptions{TLS: tlsconf.Options{CertFile: notPEM, KeyFile: notPEM}}, "load client certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewMetrics("https://127.0.0.1:1/metrics", tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error = %v, want one containing %q", err, tt.err)
			}
		})
	}
}

func TestMetricsTLS(t *testing.T) {
	t.Parallel()
	clientCert, clientKey, clientPool := testcert.Write(t)
	start := func(auth tls.ClientAuthType) *httptest.Server {
		srv := httptest.NewUnstartedServer(text(micrometer))
		srv.TLS = &tls.Config{ClientAuth: auth, ClientCAs: clientPool}
		srv.StartTLS()
		t.Cleanup(srv.Close)
		return srv
	}
	plain := start(tls.NoClientCert)
	mutual := start(tls.RequireAndVerifyClientCert)
	// Both servers use httptest's one certificate, so one CA file serves.
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: plain.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		srv   *httptest.Server
		opts  HTTPOptions
		fails bool
	}{
		{"verified by default", plain, HTTPOptions{}, true},
		{"CA file", plain, HTTPOptions{TLS: tlsconf.Options{CAFile: ca}}, false},
		{"insecure on request", plain, HTTPOptions{TLS: tlsconf.Options{Insecure: true}}, false},
		{"client certificate", mutual, HTTPOptions{TLS: tlsconf.Options{CAFile: ca, CertFile: clientCert, KeyFile: clientKey}}, false},
		{"client certificate missing", mutual, HTTPOptions{TLS: tlsconf.Options{CAFile: ca}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := NewMetrics(tt.srv.URL+"/actuator/prometheus", tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Sample(context.Background(), time.Now())
			if tt.fails != (err != nil) {
				t.Errorf("Sample error = %v, want failure %v", err, tt.fails)
			}
		})
	}
}
