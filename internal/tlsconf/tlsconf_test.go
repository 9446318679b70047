package tlsconf

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vesload/vesload/internal/testcert"
)

func TestClient(t *testing.T) {
	certFile, keyFile, _ := testcert.Write(t)
	store, passFile := testcert.WriteP12(t, certFile, keyFile, "s3cret")
	openStore, _ := testcert.WriteP12(t, certFile, keyFile, "") // a store without a password still loads
	wrongPass := filepath.Join(t.TempDir(), "wrong.pass")
	if err := os.WriteFile(wrongPass, []byte("nope"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		opts     Options
		certs    int
		roots    bool
		errMatch string
	}{
		{name: "defaults", opts: Options{}},
		{name: "CA file", opts: Options{CAFile: certFile}, roots: true},
		{name: "PEM pair", opts: Options{CertFile: certFile, KeyFile: keyFile}, certs: 1},
		{name: "PKCS#12 store", opts: Options{CertFile: store, CertPassFile: passFile}, certs: 1},
		{name: "wrong password", opts: Options{CertFile: store, CertPassFile: wrongPass}, errMatch: "wrong password"},
		{name: "store without password file", opts: Options{CertFile: store}, errMatch: "client.p12 is protected by a password: it needs --cert-pass-file"},
		{name: "store without password", opts: Options{CertFile: openStore}, certs: 1},
		{name: "PEM given as a store", opts: Options{CertFile: certFile, CertPassFile: passFile}, errMatch: "is not a PKCS#12 store (a PEM certificate takes --key)"},
		{name: "PEM without key", opts: Options{CertFile: certFile}, errMatch: "needs a key file"},
		{name: "key without cert", opts: Options{KeyFile: keyFile}, errMatch: "without a certificate file"},
		{name: "missing CA", opts: Options{CAFile: "/nonexistent/ca.pem"}, errMatch: "read CA file"},
		{name: "CA not PEM", opts: Options{CAFile: passFile}, errMatch: "no PEM certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := tt.opts.Client("localhost")
			if tt.errMatch != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errMatch) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.errMatch)
				}
				if strings.Contains(err.Error(), "s3cret") {
					t.Fatalf("error reveals the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Certificates) != tt.certs || (cfg.RootCAs != nil) != tt.roots || cfg.MinVersion != tls.VersionTLS12 {
				t.Fatalf("config: %d certificates, roots %v, min version %x", len(cfg.Certificates), cfg.RootCAs != nil, cfg.MinVersion)
			}
		})
	}
}
