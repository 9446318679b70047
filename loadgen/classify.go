package loadgen

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/valyala/fasthttp"
)

// class is an error class of the taxonomy in DESIGN §3. HTTP statuses are
// kept apart as codes, so class is a small array index on the hot path.
type class uint8

const (
	classOK class = iota
	classHTTP
	classTimeout
	classRefused
	classReset
	classDNS
	classTLS
	classPoolExhausted
	classAborted
	classTooLarge  // a response body over the client's limit
	classBadAnswer // a response that is not HTTP (status line, headers)
	classOther
	numClasses
)

var classNames = [numClasses]string{
	classOK:            "ok",
	classHTTP:          "http",
	classTimeout:       "timeout",
	classRefused:       "conn_refused",
	classReset:         "conn_reset",
	classDNS:           "dns",
	classTLS:           "tls",
	classPoolExhausted: "pool_exhausted",
	classAborted:       "aborted",
	classTooLarge:      "response_too_large",
	classBadAnswer:     "bad_response",
	classOther:         "other",
}

// httpClassNames caches "http_<code>" so that outcome labels are not built
// per request.
var httpClassNames = func() [600]string {
	var names [600]string
	for c := range names {
		names[c] = "http_" + strconv.Itoa(c)
	}
	return names
}()

// outcomeName is the error key of the result document for a class and code.
func outcomeName(c class, code int) string {
	if c == classHTTP {
		if code >= 0 && code < len(httpClassNames) {
			return httpClassNames[code]
		}
		return "http_" + strconv.Itoa(code)
	}
	return classNames[c]
}

// classifyError maps a transport error onto the taxonomy.
func classifyError(err error) class {
	var dnsErr *net.DNSError
	var recErr tls.RecordHeaderError
	var alert tls.AlertError
	var verify *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var certErr x509.CertificateInvalidError
	switch {
	case errors.Is(err, fasthttp.ErrNoFreeConns):
		return classPoolExhausted
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return classTooLarge
	case errors.As(err, &dnsErr):
		return classDNS
	case errors.Is(err, fasthttp.ErrTLSHandshakeTimeout),
		errors.As(err, &recErr), errors.As(err, &alert), errors.As(err, &verify),
		errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &certErr):
		return classTLS
	case errors.Is(err, fasthttp.ErrTimeout), errors.Is(err, fasthttp.ErrDialTimeout),
		errors.Is(err, os.ErrDeadlineExceeded), isTimeout(err):
		return classTimeout
	case errors.Is(err, syscall.ECONNREFUSED):
		return classRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, fasthttp.ErrConnectionClosed):
		return classReset
	case isBadAnswer(err):
		return classBadAnswer
	}
	return classOther
}

// isBadAnswer reports a response whose status line or headers do not
// parse. fasthttp has no error type for those, only this message prefix;
// timeouts and closed connections while reading headers are classified
// before it.
func isBadAnswer(err error) bool {
	return strings.HasPrefix(err.Error(), "error when reading response headers: ")
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

var messageIDKey = []byte(`"messageId"`)

// messageID extracts the messageId of a VES error body such as
// {"requestError":{"ServiceException":{"messageId":"SVC2000",…}}}
// without decoding the JSON. It returns nil when there is none or it does
// not look like an identifier, so a hostile body cannot fill the counts
// with arbitrary strings.
func messageID(body []byte) []byte {
	i := bytes.Index(body, messageIDKey)
	if i < 0 {
		return nil
	}
	rest := bytes.TrimLeft(body[i+len(messageIDKey):], " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return nil
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' {
		return nil
	}
	rest = rest[1:]
	end := bytes.IndexByte(rest, '"')
	if end <= 0 || end > 32 {
		return nil
	}
	for _, b := range rest[:end] {
		if !(b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.') {
			return nil
		}
	}
	return rest[:end]
}
