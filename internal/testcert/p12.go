package testcert

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"testing"

	"software.sslmate.com/src/go-pkcs12"
)

// WriteP12 turns a PEM certificate and key into a PKCS#12 store with
// password pw and a password file beside it (with a trailing newline, as
// ONAP's certificate scripts write them), and returns their paths.
func WriteP12(tb testing.TB, certFile, keyFile, pw string) (store, passFile string) {
	tb.Helper()
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := pkcs12.Modern.Encode(pair.PrivateKey, pair.Leaf, nil, pw)
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	store, passFile = filepath.Join(dir, "client.p12"), filepath.Join(dir, "client.pass")
	if err := os.WriteFile(store, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(passFile, []byte(pw+"\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	return store, passFile
}
