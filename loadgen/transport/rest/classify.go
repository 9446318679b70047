package rest

import (
	"bytes"
	"errors"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/vesload/vesload/loadgen/transport"
)

// classifyError maps a transport error onto the taxonomy: fasthttp's own
// errors here, every network error by the one classifier all transports
// share (transport.ClassifyNet).
func classifyError(err error) transport.Class {
	switch {
	case errors.Is(err, fasthttp.ErrNoFreeConns):
		return transport.PoolExhausted
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return transport.TooLarge
	case errors.Is(err, fasthttp.ErrTLSHandshakeTimeout):
		return transport.TLS
	case errors.Is(err, fasthttp.ErrTimeout), errors.Is(err, fasthttp.ErrDialTimeout):
		return transport.Timeout
	case errors.Is(err, fasthttp.ErrConnectionClosed):
		return transport.Reset
	}
	if c := transport.ClassifyNet(err); c != transport.Other {
		return c
	}
	if isBadAnswer(err) {
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
