package sample

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/internal/tlsconf"
)

// defaultTimeout bounds one scrape or query when HTTPOptions leaves
// Timeout unset: sampling ticks every second, so a hung endpoint must not
// hold the sampler for long.
const defaultTimeout = 2 * time.Second

// HTTPOptions is how a remote sampler reaches its endpoint: the same TLS
// and basic-auth choices as for the load target.
type HTTPOptions struct {
	// TLS is the trust and client certificate for https endpoints, built
	// by the one builder every part of vesload uses; verification is on
	// unless TLS.Insecure asks otherwise.
	TLS tlsconf.Options
	// User and Password are basic-auth credentials. Credentials in the URL
	// are used when these are empty. The password never appears in a
	// Source, an error or a log line.
	User, Password string
	// Timeout bounds one request; zero means two seconds.
	Timeout time.Duration
}

// endpoint is a parsed URL with its credentials taken out.
type endpoint struct {
	url      *url.URL // without user info
	user     string
	password string
}

// parseEndpoint checks raw and moves any user info into the returned
// credentials. Errors never quote raw when it may hold a password.
func parseEndpoint(raw string, opts HTTPOptions) (endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		if strings.Contains(raw, "@") {
			return endpoint{}, errors.New("invalid URL (not shown: it may hold credentials)")
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return endpoint{}, fmt.Errorf("invalid URL %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return endpoint{}, fmt.Errorf("URL %s: scheme must be http or https", redact.URL(u.String()))
	}
	if u.Host == "" {
		return endpoint{}, fmt.Errorf("URL %s: no host", redact.URL(u.String()))
	}
	ep := endpoint{user: opts.User, password: opts.Password}
	if u.User != nil && ep.user == "" && ep.password == "" {
		ep.user = u.User.Username()
		ep.password, _ = u.User.Password()
	}
	u.User = nil
	ep.url = u
	return ep, nil
}

// newTransport builds the HTTP transport for opts. Connections are kept
// alive between samples so that a once-a-second scrape does not pay a TLS
// handshake each time.
func newTransport(opts HTTPOptions) (*http.Transport, error) {
	tc, err := opts.TLS.Client("")
	if err != nil {
		return nil, err
	}
	return &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		TLSClientConfig:     tc,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: timeout(opts),
	}, nil
}

// timeout is opts.Timeout or the default.
func timeout(opts HTTPOptions) time.Duration {
	if opts.Timeout > 0 {
		return opts.Timeout
	}
	return defaultTimeout
}

// basicAuth adds basic-auth credentials to every request it carries.
type basicAuth struct {
	next           http.RoundTripper
	user, password string
}

// RoundTrip implements http.RoundTripper without changing the caller's
// request, as the interface requires.
func (b basicAuth) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.SetBasicAuth(b.user, b.password)
	return b.next.RoundTrip(r)
}

// roundTripper is the transport for ep, with its credentials when it has
// any.
func (ep endpoint) roundTripper(t http.RoundTripper) http.RoundTripper {
	if ep.user == "" && ep.password == "" {
		return t
	}
	return basicAuth{next: t, user: ep.user, password: ep.password}
}

// scrubbed hides a secret that reached an error text by some path this
// package does not control (a server echoing it back in an error): the
// text is rewritten, errors.Is and errors.As still see the cause.
type scrubbed struct {
	err    error
	secret string
}

func (e scrubbed) Error() string {
	return strings.ReplaceAll(e.err.Error(), e.secret, "***")
}

func (e scrubbed) Unwrap() error { return e.err }

// scrub wraps err so that its text never shows secret.
func scrub(err error, secret string) error {
	if err == nil || secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	return scrubbed{err: err, secret: secret}
}
