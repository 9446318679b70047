package main

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/testserver"
)

// A REST run authenticates with a PKCS#12 client store against the
// emulator in certBasicAuth mode: the certificate lets every request in
// without basic auth (so without the collector's BCrypt check), and the
// result records the auth mode.
func TestRunWithPKCS12ClientStore(t *testing.T) {
	t.Parallel()
	certFile, keyFile, _ := testcert.Write(t)
	srv, err := testserver.Start(testserver.Options{TLSCertFile: certFile, TLSKeyFile: keyFile,
		ClientCAFile: certFile, Auth: "sample1:sample1", AuthCost: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	store, passFile := testcert.WriteP12(t, certFile, keyFile, "s3cret-store")
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := cliRun(runRun, "--url", srv.URL()+"/eventListener/v7", "--cacert", certFile,
		"--cert", store, "--cert-pass-file", passFile, "-rps", "20", "-duration", "500ms", "-q", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := resultfile.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests.OK != 10 || res.Config.Auth != "certificate" {
		t.Errorf("ok %d errors %v auth %q: want 10 accepted with certificate auth", res.Requests.OK, res.Errors, res.Config.Auth)
	}
	if st := srv.Stats(); st.AuthCertificate < 10 || st.AuthBasic != 0 {
		t.Errorf("emulator saw %d certificate and %d basic-auth requests, want every one by certificate", st.AuthCertificate, st.AuthBasic)
	}
	if strings.Contains(stderr, "s3cret-store") {
		t.Errorf("stderr shows the store password: %s", stderr)
	}
}

func TestPKCS12FlagErrors(t *testing.T) {
	t.Parallel()
	certFile, keyFile, _ := testcert.Write(t)
	store, passFile := testcert.WriteP12(t, certFile, keyFile, "right")
	wrong := filepath.Join(t.TempDir(), "wrong.pass")
	if err := os.WriteFile(wrong, []byte("wrong\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--cert", store, "--key", keyFile, "--cert-pass-file", passFile}, exitUsage, "PKCS#12 store, which holds its key"},
		{[]string{"--cert-pass-file", passFile}, exitUsage, "need --cert"},
		{[]string{"--cert", certFile}, exitUsage, "--cert and --key go together"},
		{[]string{"--cert", store, "--cert-pass-file", filepath.Join(t.TempDir(), "none")}, exitUsage, "--cert-pass-file"},
		{[]string{"--cert", store, "--cert-pass-file", wrong, "--url", "https://127.0.0.1:1/eventListener/v7"}, exitUsage, "wrong password"},
	}
	for _, tc := range tests {
		args := append([]string{"-rps", "1", "-duration", "1s", "-q"}, tc.args...)
		code, _, stderr := cliRun(runRun, args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and one line containing %q", tc.args, code, stderr, tc.code, tc.want)
		}
		if strings.Contains(stderr, "right") && !strings.Contains(stderr, "wrong password") {
			t.Errorf("stderr shows a password: %s", stderr)
		}
	}
}

// TestProbeWithPKCS12ClientStore probes a listener that requires a
// client certificate with a PKCS#12 store and its password file, as a run
// does; without the password file the probe says which flag is missing.
func TestProbeWithPKCS12ClientStore(t *testing.T) {
	t.Parallel()
	certFile, keyFile, _ := testcert.Write(t)
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := tlsconf.LoadCAFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	var verified atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil && len(r.TLS.VerifiedChains) > 0 {
			verified.Add(1)
		}
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert}
	srv.StartTLS()
	defer srv.Close()
	store, passFile := testcert.WriteP12(t, certFile, keyFile, "s3cret-store")
	target := srv.URL + "/eventListener/v7"
	code, out, errs := cliRun(runProbe, target, "--cacert", certFile, "--cert", store, "--cert-pass-file", passFile, "--connects", "1")
	if code != exitOK || !strings.Contains(out, "tls handshake") || !strings.Contains(out, "(status 200)") {
		t.Fatalf("exit %d stdout %q stderr %q", code, out, errs)
	}
	if verified.Load() < 1 {
		t.Errorf("the listener saw no verified client certificate")
	}
	code, _, errs = cliRun(runProbe, target, "--cacert", certFile, "--cert", store)
	if code != exitUsage || !strings.Contains(errs, "needs --cert-pass-file") || strings.Count(errs, "\n") != 1 {
		t.Errorf("no password file: exit %d stderr %q, want exit 2 saying --cert-pass-file is needed", code, errs)
	}
	if strings.Contains(out+errs, "s3cret-store") {
		t.Errorf("the probe shows the store password")
	}
}
