package profiles

import (
	"github.com/vesload/vesload/internal/tlsconf"
)

// validate checks that the client certificate files fit together: a PEM
// certificate with its key, or a PKCS#12 store with its password file.
func (c *TLS) validate() error {
	o := tlsconf.Options{CertFile: c.Cert, KeyFile: c.Key, CertPassFile: c.CertPassFile}
	switch {
	case c.Cert == "" && (c.Key != "" || c.CertPassFile != ""):
		return fieldErr("target.tls.cert", "missing: a key or a password file needs the certificate (PEM) or store (PKCS#12) it belongs to")
	case c.Cert == "":
		return nil
	case o.IsPKCS12() && c.Key != "":
		return fieldErr("target.tls.key", "a PKCS#12 store holds its key: drop key, give cert_pass_file")
	case !o.IsPKCS12() && c.Key == "":
		return fieldErr("target.tls", "cert and key go together: want both, or a PKCS#12 store (.p12) with cert_pass_file")
	}
	return nil
}
