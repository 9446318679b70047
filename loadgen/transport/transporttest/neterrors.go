// Package transporttest holds what the tests of every transport share: the
// network errors each transport must class the same way, so that one
// table checks the REST transport, the HV-VES producers and the classifier
// they share.
package transporttest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/vesload/vesload/loadgen/transport"
)

// NetError is one network error and the class every transport gives it.
type NetError struct {
	Name string
	Err  error
	Want transport.Class
}

// timeoutErr is a net.Error that says it timed out.
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func opErr(op string, err error) error {
	return &net.OpError{Op: op, Net: "tcp", Err: os.NewSyscallError(op, err)}
}

// NetErrors returns the table. Some errors are of two kinds at once (a
// DNS lookup that timed out, a reset during a TLS handshake): they are
// classed by the one order of transport.ClassifyNet.
func NetErrors() []NetError {
	return []NetError{
		{"dns", &net.DNSError{Err: "no such host", Name: "collector.invalid"}, transport.DNS},
		{"dns timeout", &net.DNSError{Err: "timeout", Name: "collector.invalid", IsTimeout: true}, transport.DNS},
		{"tls alert", fmt.Errorf("remote error: %w", tls.AlertError(42)), transport.TLS},
		{"tls unknown authority", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}, transport.TLS},
		{"tls record", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, transport.TLS},
		{"tls hostname", x509.HostnameError{Host: "collector"}, transport.TLS},
		{"reset during handshake", &transport.HandshakeError{Err: opErr("read", syscall.ECONNRESET)}, transport.TLS},
		{"deadline", fmt.Errorf("read: %w", os.ErrDeadlineExceeded), transport.Timeout},
		{"context deadline", context.DeadlineExceeded, transport.Timeout},
		{"net timeout", &net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{}}, transport.Timeout},
		{"refused", opErr("connect", syscall.ECONNREFUSED), transport.Refused},
		{"reset", opErr("read", syscall.ECONNRESET), transport.Reset},
		{"broken pipe", opErr("write", syscall.EPIPE), transport.Reset},
		{"eof", io.EOF, transport.Reset},
		{"unexpected eof", fmt.Errorf("read body: %w", io.ErrUnexpectedEOF), transport.Reset},
		{"closed", fmt.Errorf("write: %w", net.ErrClosed), transport.Reset},
		{"canceled", context.Canceled, transport.Aborted},
		{"other", fmt.Errorf("something else"), transport.Other},
	}
}
