package rest

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/valyala/fasthttp"

	"github.com/vesload/vesload/loadgen/transport"
)

// classifyError maps a transport error onto the taxonomy.
func classifyError(err error) transport.Class {
	var dnsErr *net.DNSError
	var recErr tls.RecordHeaderError
	var alert tls.AlertError
	var verify *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var certErr x509.CertificateInvalidError
	switch {
	case errors.Is(err, fasthttp.ErrNoFreeConns):
		return transport.PoolExhausted
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return transport.TooLarge
	case errors.As(err, &dnsErr):
		return transport.DNS
	case errors.Is(err, fasthttp.ErrTLSHandshakeTimeout),
		errors.As(err, &recErr), errors.As(err, &alert), errors.As(err, &verify),
		errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &certErr):
		return transport.TLS
	case errors.Is(err, fasthttp.ErrTimeout), errors.Is(err, fasthttp.ErrDialTimeout),
		errors.Is(err, os.ErrDeadlineExceeded), isTimeout(err):
		return transport.Timeout
	case errors.Is(err, syscall.ECONNREFUSED):
		return transport.Refused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, fasthttp.ErrConnectionClosed):
		return transport.Reset
	case isBadAnswer(err):
		return transport.BadAnswer
	}
	return transport.Other
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
