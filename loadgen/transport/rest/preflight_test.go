package rest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
	otherCert, otherKey := otherCA(t)
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

// otherCA writes a self-signed client certificate whose issuer is named
// apart from testcert's, so that a server listing its acceptable CAs does
// not list this one.
func otherCA(t *testing.T) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "another authority"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "other.pem"), filepath.Join(dir, "other.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}
