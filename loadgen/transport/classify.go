package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
)

// ClassifyNet is the one network-error classifier of every transport: it
// maps a dial, handshake, write or read error onto the taxonomy, testing
// in one order (DNS, TLS, timeout, refused, reset) so that an error is
// classed the same way whichever protocol met it. A transport tests its
// library's own errors first (fasthttp's pool and size errors, say) and
// hands the rest here; HandshakeError marks a TLS failure whatever its
// cause.
func ClassifyNet(err error) Class {
	var dnsErr *net.DNSError
	var recErr tls.RecordHeaderError
	var alert tls.AlertError
	var verify *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var certErr x509.CertificateInvalidError
	var hs *HandshakeError
	var ne net.Error
	switch {
	case err == nil:
		return OK
	case errors.As(err, &dnsErr):
		return DNS
	case errors.As(err, &hs), errors.As(err, &recErr), errors.As(err, &alert), errors.As(err, &verify),
		errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &certErr):
		return TLS
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &ne) && ne.Timeout():
		return Timeout
	case errors.Is(err, syscall.ECONNREFUSED):
		return Refused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return Reset
	case errors.Is(err, context.Canceled):
		return Aborted
	}
	return Other
}

// HandshakeError marks a failed TLS handshake, whatever its cause (a
// reset during the handshake is a TLS failure, not a reset).
type HandshakeError struct{ Err error }

func (e *HandshakeError) Error() string { return "TLS handshake: " + e.Err.Error() }

// Unwrap returns the handshake's own error.
func (e *HandshakeError) Unwrap() error { return e.Err }
