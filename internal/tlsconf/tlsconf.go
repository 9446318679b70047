// Package tlsconf builds the client TLS settings every part of vesload uses
// (the REST transport, the HV-VES producers, the target samplers, the Kafka
// consumer), so that verification, CA bundles and client certificates
// behave the same everywhere. Verification is on unless asked otherwise.
//
// It reads files and nothing else: it never logs, and an error names the
// file but never a password.
package tlsconf

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"strings"

	"software.sslmate.com/src/go-pkcs12"

	"github.com/vesload/vesload/internal/inputfile"
)

// Options says which files make up a client's TLS identity and trust.
// A client certificate is either a PEM pair (CertFile + KeyFile) or a
// PKCS#12 store (CertFile ending in .p12 or .pfx, or any CertFile given
// with a CertPassFile and no KeyFile), as ONAP's certificate scripts make
// them: the store's password is read from CertPassFile.
type Options struct {
	CAFile       string // PEM bundle of authorities to trust; the system roots when empty
	CertFile     string // client certificate: PEM, or a PKCS#12 store
	KeyFile      string // PEM key of a PEM client certificate
	CertPassFile string // password of a PKCS#12 store (first line, trailing newline dropped)
	Insecure     bool   // skip server verification (only on request)
}

// Enabled reports whether any TLS setting was given, so a caller can tell
// a plain-TCP default from a deliberate TLS configuration.
func (o Options) Enabled() bool {
	return o.CAFile != "" || o.CertFile != "" || o.KeyFile != "" || o.CertPassFile != "" || o.Insecure
}

// IsPKCS12 reports whether CertFile is to be read as a PKCS#12 store.
func (o Options) IsPKCS12() bool {
	if o.CertFile == "" {
		return false
	}
	lower := strings.ToLower(o.CertFile)
	return strings.HasSuffix(lower, ".p12") || strings.HasSuffix(lower, ".pfx") ||
		(o.CertPassFile != "" && o.KeyFile == "")
}

// Client returns a client configuration for a server called serverName
// (empty: taken from the address by crypto/tls at dial time).
func (o Options) Client(serverName string) (*tls.Config, error) {
	cfg := &tls.Config{ServerName: serverName, InsecureSkipVerify: o.Insecure, MinVersion: tls.VersionTLS12}
	if o.CAFile != "" {
		pool, err := LoadCAFile(o.CAFile)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	cert, ok, err := o.certificate()
	if err != nil {
		return nil, err
	}
	if ok {
		cfg.Certificates = []tls.Certificate{cert}
		// The certificate is always offered, even when the server names
		// other CAs it accepts: otherwise the client sends none and the
		// server's refusal reads "certificate required", hiding that it
		// got one it does not trust (see Explain).
		cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &cert, nil }
	}
	return cfg, nil
}

// Explain names what a TLS failure means for the user of a client
// certificate or a CA file, or returns "" when err is no TLS failure it
// knows. The server's alerts say little on their own ("bad certificate",
// "certificate required"); these say which side refused what, and what to
// check.
func Explain(err error) string {
	var unknown x509.UnknownAuthorityError
	var verify *tls.CertificateVerificationError
	var host x509.HostnameError
	var rec tls.RecordHeaderError
	switch {
	case errors.As(err, &unknown), errors.As(err, &verify) && errors.As(verify.Err, &unknown):
		return "the server's certificate is signed by an unknown authority: give its CA with --cacert (or --insecure)"
	case errors.As(err, &host):
		return "the server's certificate does not name this host: " + host.Error()
	case errors.As(err, &rec):
		return "the server does not speak TLS (a plaintext listener?)"
	}
	// The server's alert reaches the client as "remote error: tls: …"
	// (crypto/tls keeps the alert's type to itself).
	msg := err.Error()
	if !strings.Contains(msg, "remote error: tls: ") {
		return ""
	}
	switch {
	case strings.Contains(msg, "unknown certificate authority"):
		return "the server refused the client certificate: unknown certificate authority (the server does not trust its CA)"
	case strings.Contains(msg, "bad certificate"), strings.Contains(msg, "unsupported certificate"):
		return "the server refused the client certificate (bad certificate: most often signed by a CA the server does not trust)"
	case strings.Contains(msg, "revoked certificate"), strings.Contains(msg, "expired certificate"):
		return "the server refused the client certificate: " + msg[strings.Index(msg, "tls: ")+5:]
	case strings.Contains(msg, "certificate required"):
		return "the server requires a client certificate and got none: give one with --cert"
	}
	return ""
}

// LoadCAFile reads a PEM bundle of certificate authorities.
func LoadCAFile(path string) (*x509.CertPool, error) {
	pem, err := inputfile.ReadFile(path, "CA file", inputfile.Cert)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("CA file %s: no PEM certificate found", path)
	}
	return pool, nil
}

// certificate loads the client certificate, if one is configured.
func (o Options) certificate() (tls.Certificate, bool, error) {
	switch {
	case o.CertFile == "" && o.KeyFile == "" && o.CertPassFile == "":
		return tls.Certificate{}, false, nil
	case o.CertFile == "":
		return tls.Certificate{}, false, errors.New("client certificate: a key or password file was given without a certificate file")
	case o.IsPKCS12():
		c, err := loadPKCS12(o.CertFile, o.CertPassFile)
		return c, err == nil, err
	case o.KeyFile == "":
		return tls.Certificate{}, false, fmt.Errorf("client certificate %s: a PEM certificate needs a key file (or give a PKCS#12 store with a password file)", o.CertFile)
	}
	pair, err := inputfile.KeyPair(o.CertFile, o.KeyFile)
	if err != nil {
		var tl *inputfile.TooLargeError
		if errors.As(err, &tl) {
			return tls.Certificate{}, false, err
		}
		return tls.Certificate{}, false, fmt.Errorf("load client certificate: %w", err)
	}
	return pair, true, nil
}

// loadPKCS12 decodes a PKCS#12 store with its certificate chain.
func loadPKCS12(storeFile, passFile string) (tls.Certificate, error) {
	data, err := inputfile.ReadFile(storeFile, "PKCS#12 store", inputfile.Cert)
	if err != nil {
		return tls.Certificate{}, err
	}
	password := ""
	if passFile != "" {
		raw, err := inputfile.ReadFile(passFile, "PKCS#12 password file", inputfile.Secret)
		if err != nil {
			return tls.Certificate{}, err
		}
		password = strings.TrimRight(string(raw), "\r\n")
	}
	key, leaf, chain, err := pkcs12.DecodeChain(data, password)
	if err != nil {
		if errors.Is(err, pkcs12.ErrIncorrectPassword) && passFile == "" {
			// No password was given: the store is not unreadable, the
			// password file is missing.
			return tls.Certificate{}, fmt.Errorf("PKCS#12 store %s is protected by a password: it needs --cert-pass-file (cert_pass_file in a profile), a file holding the password", storeFile)
		}
		if errors.Is(err, pkcs12.ErrIncorrectPassword) {
			return tls.Certificate{}, fmt.Errorf("PKCS#12 store %s: wrong password (check the password file)", storeFile)
		}
		var se asn1.StructuralError
		var syn asn1.SyntaxError
		if errors.As(err, &se) || errors.As(err, &syn) || strings.Contains(err.Error(), "error reading P12 data") {
			// The decoder's ASN.1 detail says nothing to a user.
			return tls.Certificate{}, fmt.Errorf("%s is not a PKCS#12 store (a PEM certificate takes --key)", storeFile)
		}
		return tls.Certificate{}, fmt.Errorf("PKCS#12 store %s: %v", storeFile, err)
	}
	c := tls.Certificate{PrivateKey: key, Leaf: leaf, Certificate: [][]byte{leaf.Raw}}
	for _, ca := range chain {
		c.Certificate = append(c.Certificate, ca.Raw)
	}
	return c, nil
}
