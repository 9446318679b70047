package testserver

import (
	"crypto/tls"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
)

func TestTLSWithBasicAuth(t *testing.T) {
	t.Parallel()
	certFile, keyFile, pool := testcert.Write(t)
	s := startServer(t, Options{TLSCertFile: certFile, TLSKeyFile: keyFile, Auth: "sample1:sample1"})
	if !strings.HasPrefix(s.URL(), "https://127.0.0.1:") {
		t.Fatalf("URL %q, want https", s.URL())
	}
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("sample1:sample1"))
	r := do(t, c, "POST", s.URL()+"/eventListener/v7", event7("tls"), map[string]string{"Authorization": auth})
	if r.status != 202 {
		t.Fatalf("status %d (%s), want 202", r.status, r.body)
	}
	if r := do(t, c, "POST", s.URL()+"/eventListener/v7", event7("tls2"), nil); r.status != 401 {
		t.Errorf("without auth: %d, want 401", r.status)
	}
	// A client that does not trust the certificate fails the handshake.
	_, err := testClient().Get(s.URL() + "/healthcheck")
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted client: err = %v, want a certificate error", err)
	}
}
