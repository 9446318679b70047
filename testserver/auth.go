package testserver

import (
	"bytes"
	"crypto/subtle"
	"encoding/base64"
	"fmt"

	"github.com/valyala/fasthttp"
	"golang.org/x/crypto/bcrypt"
)

// The collector's auth.method=certBasicAuth, as its ApiAuthInterceptor
// does it: a verified client certificate is enough; otherwise HTTP basic
// auth, whose password is checked against a BCrypt hash, so that every
// basic-auth request costs one BCrypt verification (cost 10 in ONAP's
// settings). A client certificate skips that cost, which is why a run
// records the auth mode it used.

// MaxAuthCost bounds Options.AuthCost: each step doubles the cost, and
// 16 already takes seconds per request.
const MaxAuthCost = 16

// notPermittedBody is the collector's answer on its HTTP port when auth
// is on (anything but /healthcheck): 400, plain text, no Content-Type.
const notPermittedBody = "Operation not permitted"

// authenticator checks credentials; it is read-only after Start.
type authenticator struct {
	user, password []byte
	hash           []byte // BCrypt hash of password when AuthCost > 0
	certificates   bool   // a verified client certificate is enough
}

// newAuthenticator prepares the checks of s; hashing the password at the
// configured cost is the one slow step of Start.
func newAuthenticator(s settings) (authenticator, error) {
	a := authenticator{user: []byte(s.user), password: []byte(s.password), certificates: s.ClientCAFile != ""}
	if s.user == "" || s.AuthCost == 0 {
		return a, nil
	}
	h, err := bcrypt.GenerateFromPassword(a.password, s.AuthCost)
	if err != nil {
		return a, fmt.Errorf("hash the basic-auth password: %w", err)
	}
	a.hash = h
	return a, nil
}

// enabled reports whether requests must authenticate at all.
func (a *authenticator) enabled() bool { return len(a.user) > 0 }

// authorized checks one request and counts how it authenticated.
func (s *Server) authorized(ctx *fasthttp.RequestCtx) bool {
	a := &s.auth
	if !a.enabled() {
		return true
	}
	if s.scheme == "https" && !ctx.IsTLS() {
		return true // the HTTP port's /healthcheck; the rest was refused
	}
	if a.certificates && ctx.IsTLS() {
		if st := ctx.TLSConnectionState(); st != nil && len(st.VerifiedChains) > 0 {
			s.counters.authCertificate.Add(1)
			return true
		}
	}
	s.counters.authBasic.Add(1)
	return a.basic(ctx.Request.Header.Peek("Authorization"))
}

// basic checks an Authorization header: the user in constant time, then
// the password against the BCrypt hash (only for the known user, as the
// collector does) or, without one, in constant time.
func (a *authenticator) basic(h []byte) bool {
	const prefix = "basic "
	if len(h) < len(prefix) || !bytes.EqualFold(h[:len(prefix)], []byte(prefix)) {
		return false
	}
	enc := bytes.TrimSpace(h[len(prefix):])
	var buf [256]byte
	if base64.StdEncoding.DecodedLen(len(enc)) > len(buf) {
		return false
	}
	n, err := base64.StdEncoding.Decode(buf[:], enc)
	if err != nil {
		return false
	}
	user, pass, ok := bytes.Cut(buf[:n], []byte(":"))
	if !ok || subtle.ConstantTimeCompare(user, a.user) != 1 {
		return false
	}
	if a.hash != nil {
		return bcrypt.CompareHashAndPassword(a.hash, pass) == nil
	}
	return subtle.ConstantTimeCompare(pass, a.password) == 1
}

// plainPortRefused reports a request that came in on the plain HTTP
// listener of an HTTPS emulator with auth on: the collector answers those
// (all but /healthcheck) with 400 "Operation not permitted".
func (s *Server) plainPortRefused(ctx *fasthttp.RequestCtx) bool {
	if s.scheme != "https" || ctx.IsTLS() || !s.auth.enabled() || string(ctx.Path()) == "/healthcheck" {
		return false
	}
	ctx.SetStatusCode(fasthttp.StatusBadRequest)
	ctx.Response.SetBodyString(notPermittedBody)
	return true
}
