package scenario

import "github.com/vesload/vesload/loadgen/transport/rest"

// Auth modes recorded in a result's config.auth. The collector checks a
// client certificate first and falls back to basic auth, which costs it a
// BCrypt verification per request: the mode changes the collector's CPU,
// so an A/B comparison must keep it identical (compare refuses otherwise).
const (
	authNone            = "none"
	authBasic           = "basic"
	authCertificate     = "certificate"
	authCertificateAndB = "certificate+basic"
)

// authMode says how the run's requests authenticate.
func authMode(c rest.Options) string {
	cert := c.TLS.CertFile != ""
	basic := c.User != "" || c.Password != ""
	switch {
	case cert && basic:
		return authCertificateAndB
	case cert:
		return authCertificate
	case basic:
		return authBasic
	}
	return authNone
}
