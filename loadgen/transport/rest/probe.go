package rest

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

var _ transport.Prober = (*Transport)(nil)

// Probe implements transport.Prober: it sends r as the run would, on a
// sender of its own, so that what the target answers the run it answers
// the preflight.
func (t *Transport) Probe(r *transport.Request, o *transport.Outcome) {
	snd, release := t.NewSender()
	defer release()
	snd.Send(r, o)
}

// Explain implements transport.Prober: the causes of a target refusing
// every request that a user can mend from the command line.
func (t *Transport) Explain(class, messageID string) string {
	path := t.path()
	if code, ok := httpCode(class); ok {
		return explainStatus(code, messageID, path, t.target, t.sendsCredentials())
	}
	switch class {
	case result.ClassBadResponse, result.ClassConnReset:
		if !t.target.isTLS {
			return fmt.Sprintf("the target answered no HTTP (%s): %s may speak TLS: use https://", class, t.target.addr)
		}
	case result.ClassTLS:
		return fmt.Sprintf("the TLS handshake with %s failed (%s): a plain port given https://, or a certificate the CA does not sign (run with -v for the handshake's error)", t.target.addr, class)
	}
	return ""
}

// sendsCredentials tells whether the requests carry any credential: basic
// auth, a header that names one (Authorization, Cookie, X-Api-Key, …) or
// a client certificate; a refusal of a run that sends none is not about
// wrong credentials.
func (t *Transport) sendsCredentials() bool {
	if t.o.User != "" || t.o.Password != "" || t.tls != nil && (len(t.tls.Certificates) > 0 || t.tls.GetClientCertificate != nil) {
		return true
	}
	secret := func(hs []transport.Header) bool {
		return slices.ContainsFunc(hs, func(h transport.Header) bool { return redact.SecretHeader(h.Name) })
	}
	if secret(t.header) || secret(t.o.Headers) {
		return true
	}
	return slices.ContainsFunc(t.o.Kinds, func(k Kind) bool { return secret(k.Headers) })
}

// explainStatus names the likely cause of an HTTP status answered to
// every request; the status and messageId are named by the caller. A
// 400 with a messageId is the collector's verdict on the body, not a
// port that speaks TLS.
func explainStatus(code int, messageID, path string, t target, credentials bool) string {
	switch {
	case (code == 404 || code == 405) && !strings.Contains(path, "/eventListener/v"):
		return fmt.Sprintf("the listener path is missing? the target answered %d to %q: VES collectors listen on /eventListener/v7 (give the whole URL: -url http://%s/eventListener/v7)", code, path, t.addr)
	case code == 404 || code == 405:
		var others []string
		for _, v := range []string{"/eventListener/v5", "/eventListener/v7"} {
			if !strings.HasPrefix(path, v) {
				others = append(others, v)
			}
		}
		return fmt.Sprintf("the target has no listener on %q (another version? %s)", path, strings.Join(others, ", "))
	case (code == 401 || code == 403) && !credentials:
		return "the collector asks for credentials and none were sent: give --user and --password-file (or the profile's target.auth)"
	case code == 401 || code == 403:
		return "the collector refused the credentials: check --user and --password-file (or the profile's target.auth)"
	case code == 400 && !t.isTLS && messageID == "":
		return fmt.Sprintf("if %s speaks TLS, use https:// (a TLS port answers plain HTTP with 400)", t.addr)
	}
	return ""
}

// httpCode reads the status of an error key http_<code>.
func httpCode(class string) (int, bool) {
	digits, ok := strings.CutPrefix(class, result.HTTPClassPrefix)
	if !ok {
		return 0, false
	}
	code, err := strconv.Atoi(digits)
	return code, err == nil
}

// path is the request path of the first kind of the mix, for messages.
func (t *Transport) path() string {
	raw := t.o.URL
	if len(t.o.Kinds) > 0 {
		raw = t.o.Kinds[0].URL
	}
	u, err := url.Parse(raw)
	if err != nil || u.Path == "" {
		return "/"
	}
	return u.Path
}

// WireHeaders are the headers of a request of kind with body exactly as
// the transport writes them (Host and Content-Length included, a header
// given twice written once), in their order on the wire, so that a dry
// run shows what is sent, not what was asked for. Credentials are not
// hidden here: the caller redacts. It does not touch the network.
func (t *Transport) WireHeaders(kind int, body []byte) ([]transport.Header, error) {
	if kind < 0 || kind >= len(t.o.Kinds) {
		return nil, fmt.Errorf("no request kind %d", kind)
	}
	req := t.newRequest(&t.o.Kinds[kind])
	defer fasthttp.ReleaseRequest(req)
	req.SetBodyRaw(body)
	if len(req.Header.UserAgent()) == 0 {
		req.Header.SetUserAgent(t.o.UserAgent) // as the client does on sending
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	if err := req.Write(w); err != nil {
		return nil, fmt.Errorf("write request: %w", err)
	}
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("write request: %w", err)
	}
	head, _, _ := bytes.Cut(b.Bytes(), []byte("\r\n\r\n"))
	lines := strings.Split(string(head), "\r\n")
	hs := make([]transport.Header, 0, len(lines))
	for _, l := range lines[1:] { // after the request line
		name, value, _ := strings.Cut(l, ":")
		hs = append(hs, transport.Header{Name: name, Value: strings.TrimSpace(value)})
	}
	return hs, nil
}
