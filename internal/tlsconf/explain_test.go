package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/testcert"
)

// handshakeWith runs one TLS exchange between a client configured by o
// and a server that serves its own certificate and requires client
// certificates of its own CA: it returns the client's error, from the
// handshake or the first read (TLS 1.3 refuses a client certificate after
// the client's side of the handshake).
func handshakeWith(t *testing.T, o Options, server tls.Certificate, serverCAs *x509.CertPool, plaintext bool) error {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if plaintext {
			_, _ = c.Write([]byte("HTTP/1.1 400 Bad Request\r\n\r\n"))
			return
		}
		s := tls.Server(c, &tls.Config{Certificates: []tls.Certificate{server}, ClientCAs: serverCAs, ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS12})
		if s.Handshake() == nil {
			_, _ = s.Write([]byte("x"))
		}
	}()
	defer wg.Wait()
	cfg, err := o.Client("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	c, err := tls.Dial("tcp", ln.Addr().String(), cfg)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	var b [1]byte
	_, err = c.Read(b[:])
	return err
}

// A refusal is named for what it is: a client certificate from a CA the
// server does not trust is not "certificate required", and a server
// certificate of an unknown authority asks for --cacert.
func TestExplainRefusals(t *testing.T) {
	t.Parallel()
	srvCertFile, srvKeyFile, srvPool := testcert.Write(t)
	srvCert, err := tls.LoadX509KeyPair(srvCertFile, srvKeyFile)
	if err != nil {
		t.Fatal(err)
	}
	otherCert, otherKey, _ := testcert.Write(t) // another CA altogether
	tests := []struct {
		name      string
		o         Options
		plaintext bool
		want      string
	}{
		{"client certificate of another CA", Options{CAFile: srvCertFile, CertFile: otherCert, KeyFile: otherKey}, false, "refused the client certificate"},
		{"no client certificate", Options{CAFile: srvCertFile}, false, "requires a client certificate and got none"},
		{"server of an unknown authority", Options{CertFile: srvCertFile, KeyFile: srvKeyFile}, false, "unknown authority: give its CA with --cacert"},
		{"plaintext server", Options{CAFile: srvCertFile}, true, "does not speak TLS"},
	}
	for _, tc := range tests {
		err := handshakeWith(t, tc.o, srvCert, srvPool, tc.plaintext)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if got := Explain(err); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %v explained as %q, want %q", tc.name, err, got, tc.want)
		}
	}
	if got := Explain(net.ErrClosed); got != "" {
		t.Errorf("a non-TLS error explained as %q", got)
	}
}
