// Package redact is the project's one policy for hiding secrets in what it
// prints or writes: the password of a URL (in its user info or in a query
// parameter such as InfluxDB's p=), and the value of a header that carries
// credentials. Results are redacted by the code that builds them;
// renderers apply the same policy again, so that a secret that slipped
// through is still not shown.
//
// It must not log, read files or know about any other package: it is a
// leaf that every part of the project can call.
package redact

import (
	"net/url"
	"strings"
)

// Mask replaces every hidden value.
const Mask = "xxxxx"

// URL hides the password of every URL in s, also inside longer text such
// as "metrics:https://u:p@host/…" or a message quoting a malformed URL:
// in each space-separated word, what lies between the user name and the
// word's last '@' becomes Mask ("https://user:xxxxx@host/…"), and so does
// the value of every query parameter that names a secret (see
// SecretParam: "…/write?db=jmeter&u=inf&p=xxxxx"). It errs on the side of
// hiding: an '@' in a path after a ':' hides the text before it too, since
// a mistyped URL ("x://a/user:pw@host") is exactly where a password would
// otherwise leak.
func URL(s string) string {
	if !strings.Contains(s, "@") && !strings.Contains(s, "=") {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		end := strings.IndexAny(s, " \t\r\n")
		if end < 0 {
			end = len(s)
		}
		b.WriteString(word(s[:end]))
		s = s[end:]
		sp := len(s) - len(strings.TrimLeft(s, " \t\r\n"))
		b.WriteString(s[:sp])
		s = s[sp:]
	}
	return b.String()
}

// word redacts one space-free word: the credentials part ends at the last
// '@' and starts after the first "://" when that comes before the first
// '@' (else at the start of the word); its password starts after the
// first ':' in it.
func word(w string) string {
	return query(userinfo(w))
}

// userinfo hides the password of a word's user info.
func userinfo(w string) string {
	at := strings.LastIndexByte(w, '@')
	if at < 0 {
		return w
	}
	start := 0
	if i := strings.Index(w, "://"); i >= 0 && i < strings.IndexByte(w, '@') {
		start = i + 3
	}
	colon := strings.IndexByte(w[start:at], ':')
	if colon < 0 {
		return w // a user name alone is no secret
	}
	return w[:start+colon+1] + Mask + w[at:]
}

// secretParams are the query parameters whose values are credentials:
// InfluxDB's p (and u's partner password), and the names APIs give tokens
// and keys. They are compared without case and after unescaping.
var secretParams = map[string]bool{
	"p": true, "password": true, "pass": true, "passwd": true, "pwd": true,
	"token": true, "access_token": true, "api_key": true, "apikey": true, "secret": true,
}

// SecretParam reports whether the value of query parameter name is a
// credential.
func SecretParam(name string) bool {
	if n, err := url.QueryUnescape(name); err == nil {
		name = n
	}
	return secretParams[strings.ToLower(name)]
}

// query hides the values of the secret parameters in the query of a
// space-free word: after its first '?', parameters are cut at '&' or ';'
// (a name is read after its last '?', "??p=" included),
// and a value ends there, at a '#' or at a quote (a URL quoted in a
// message keeps its closing quote).
func query(w string) string {
	q := strings.IndexByte(w, '?')
	if q < 0 || !strings.Contains(w[q:], "=") {
		return w
	}
	var b strings.Builder
	b.WriteString(w[:q+1])
	rest := w[q+1:]
	for rest != "" {
		end := strings.IndexAny(rest, "&;#\"'`")
		if end < 0 {
			end = len(rest)
		}
		param := rest[:end]
		if name, _, ok := strings.Cut(param, "="); ok && SecretParam(name[strings.LastIndexByte(name, '?')+1:]) {
			param = name + "=" + Mask
		}
		b.WriteString(param)
		rest = rest[end:]
		if rest == "" {
			break
		}
		if rest[0] == '#' || rest[0] == '"' || rest[0] == '\'' || rest[0] == '`' {
			// The fragment or the text after a closing quote: a
			// parameter may start again only after a new '?'.
			b.WriteString(query(rest))
			break
		}
		b.WriteByte(rest[0])
		rest = rest[1:]
	}
	return b.String()
}

// secretWords mark header names whose values are credentials:
// Authorization, Proxy-Authorization, Cookie, X-Api-Key, X-Auth-Token and
// any vendor header that names a token, key, secret or password.
var secretWords = []string{"auth", "token", "key", "secret", "cookie", "password"}

// SecretHeader reports whether the value of header name is a credential.
func SecretHeader(name string) bool {
	n := strings.ToLower(name)
	for _, s := range secretWords {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// Header returns the value of header name as it may be shown: Mask for a
// credential, else the value with URL passwords hidden.
func Header(name, value string) string {
	if SecretHeader(name) {
		return Mask
	}
	return URL(value)
}
