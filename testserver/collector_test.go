package testserver

import (
	"bufio"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
	"golang.org/x/crypto/bcrypt"
)

// The texts below are the collector's own (HealthCheckController,
// VesRestController, ApiAuthInterceptor), written out rather than taken
// from the package's constants, so that a changed constant fails here.

func TestHealthcheckSaysImGood(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{})
	r := do(t, testClient(), "GET", s.URL()+"/healthcheck", "", nil)
	if r.status != 200 || r.body != "I'm good" {
		t.Errorf("GET /healthcheck = %d %q, want 200 \"I'm good\"", r.status, r.body)
	}
}

func TestMinorVersionHeader(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{})
	c := testClient()
	tests := []struct {
		path, minor, body string
		status            int
	}{
		{"/eventListener/v7", "", event7("m1"), 202},
		{"/eventListener/v7", "2", event7("m2"), 202},
		{"/eventListener/v7/eventBatch", "2", batch7("fault", "m3"), 202},
		{"/eventListener/v7", "1", event7("m4"), 400},
		{"/eventListener/v7", "3", event7("m5"), 400},
		{"/eventListener/v5", "4", event5("m6"), 202},
		{"/eventListener/v5", "2", event5("m7"), 400},
		{"/eventListener/v4", "7", event5("m8"), 202},
		{"/eventListener/v3", "0", event5("m9"), 400}, // v3 is not in the API description
	}
	for _, tc := range tests {
		h := map[string]string{}
		if tc.minor != "" {
			h["X-MinorVersion"] = tc.minor
		}
		r := do(t, c, "POST", s.URL()+tc.path, tc.body, h)
		if r.status != tc.status {
			t.Errorf("%s X-MinorVersion %q: %d %q, want %d", tc.path, tc.minor, r.status, r.body, tc.status)
		}
		if tc.status == 400 && r.body != "INVALID_CUSTOM_HEADER" {
			t.Errorf("%s X-MinorVersion %q: body %q, want the collector's INVALID_CUSTOM_HEADER", tc.path, tc.minor, r.body)
		}
	}
}

// The VES message limit is 2 MB: a body just over it gets 413, one just
// under it is read (and judged on its content).
func TestMessageLimitIs2MB(t *testing.T) {
	t.Parallel()
	s := startServer(t, Options{})
	c := testClient()
	ev := event7("big")
	pad := func(n int) string { return ev[:len(ev)-1] + strings.Repeat(" ", n-len(ev)) + "}" }
	if r := do(t, c, "POST", s.URL()+"/eventListener/v7", pad(2<<20), nil); r.status != 202 {
		t.Errorf("2 MiB body: %d %.100s, want 202", r.status, r.body)
	}
	// Over the limit the emulator answers from the Content-Length alone and
	// closes; a client still writing 2 MiB would see a reset, so only the
	// head is sent.
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(s.URL(), "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "POST /eventListener/v7 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 2<<20+1)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read the answer to 2 MiB + 1: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || messageID(string(body)) != "ServiceException SVC2000" {
		t.Errorf("2 MiB + 1 body: %d %.100s, want 413 SVC2000", resp.StatusCode, body)
	}
}

// certBasicAuth: a client certificate lets a request in without basic
// auth; without one, basic auth is checked against a BCrypt hash made at
// the configured cost; the HTTP port refuses all but /healthcheck.
func TestCertBasicAuth(t *testing.T) {
	t.Parallel()
	certFile, keyFile, pool := testcert.Write(t)
	s := startServer(t, Options{TLSCertFile: certFile, TLSKeyFile: keyFile, ClientCAFile: certFile,
		Auth: "sample1:sample1", AuthCost: bcrypt.MinCost, HTTPAddr: "127.0.0.1:0"})
	if cost, err := bcrypt.Cost(s.auth.hash); err != nil || cost != bcrypt.MinCost {
		t.Fatalf("password hash cost %d (%v), want %d: every basic-auth request must cost a BCrypt check", cost, err, bcrypt.MinCost)
	}
	clientCert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	client := func(certs ...tls.Certificate) *http.Client {
		return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: certs, MinVersion: tls.VersionTLS12}}}
	}
	basic := func(cred string) map[string]string {
		return map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(cred))}
	}
	url := s.URL() + "/eventListener/v7"
	if r := do(t, client(clientCert), "POST", url, event7("a1"), nil); r.status != 202 {
		t.Errorf("client certificate, no basic auth: %d %s, want 202", r.status, r.body)
	}
	if r := do(t, client(), "POST", url, event7("a2"), basic("sample1:sample1")); r.status != 202 {
		t.Errorf("basic auth: %d %s, want 202", r.status, r.body)
	}
	for _, cred := range []string{"sample1:wrong", "other:sample1", "sample1"} {
		if r := do(t, client(), "POST", url, event7("a3"), basic(cred)); r.status != 401 || messageID(r.body) != "PolicyException POL2000" {
			t.Errorf("basic auth %q: %d %s, want 401 POL2000", cred, r.status, r.body)
		}
	}
	st := s.Stats()
	if st.AuthCertificate != 1 || st.AuthBasic != 4 {
		t.Errorf("auth counts: certificate %d, basic %d; want 1 and 4", st.AuthCertificate, st.AuthBasic)
	}

	plain := s.PlainURL()
	if !strings.HasPrefix(plain, "http://127.0.0.1:") {
		t.Fatalf("PlainURL %q, want http on loopback", plain)
	}
	r := do(t, testClient(), "POST", plain+"/eventListener/v7", event7("a4"), basic("sample1:sample1"))
	if r.status != 400 || r.body != "Operation not permitted" {
		t.Errorf("HTTP port: %d %q, want 400 \"Operation not permitted\"", r.status, r.body)
	}
	if r := do(t, testClient(), "GET", plain+"/healthcheck", "", nil); r.status != 200 || r.body != "I'm good" {
		t.Errorf("HTTP port healthcheck: %d %q, want 200 \"I'm good\"", r.status, r.body)
	}
}

func TestAuthOptionErrors(t *testing.T) {
	t.Parallel()
	certFile, keyFile, _ := testcert.Write(t)
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"cost too low", Options{Auth: "u:p", AuthCost: 3}, "auth cost 3"},
		{"cost too high", Options{Auth: "u:p", AuthCost: MaxAuthCost + 1}, "auth cost"},
		{"client CA without TLS", Options{Auth: "u:p", ClientCAFile: certFile}, "need TLS and auth"},
		{"HTTP port without auth", Options{TLSCertFile: certFile, TLSKeyFile: keyFile, HTTPAddr: "127.0.0.1:0"}, "need TLS and auth"},
		{"client CA not PEM", Options{TLSCertFile: certFile, TLSKeyFile: keyFile, Auth: "u:p", ClientCAFile: keyFile}, "no PEM certificate"},
	}
	for _, tc := range tests {
		s, err := Start(tc.opts)
		if err == nil {
			_ = s.Close()
			t.Errorf("%s: Start succeeded, want an error containing %q", tc.name, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
