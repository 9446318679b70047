package probe

import (
	"fmt"

	"github.com/vesload/vesload/internal/tlsconf"
)

// Limits of a probe's options: a link check, not a load test.
const (
	MaxConnects = 1000
	MaxBulkMiB  = 8192
)

// Check validates o as given (before Run's defaults): connects and bulk
// bytes within their limits, a positive timeout, a target ParseTarget
// reads and a sink that is an http(s) URL. Its errors name the options as
// `vesload probe` spells them, so that bad input is refused before
// anything is dialled.
func (o Options) Check() error {
	switch mib := o.BulkBytes >> 20; {
	case o.Connects < 1 || o.Connects > MaxConnects:
		return fmt.Errorf("--connects %d: want 1 to %d", o.Connects, MaxConnects)
	case mib < 1 || mib > MaxBulkMiB || o.BulkBytes != mib<<20:
		return fmt.Errorf("--bulk-mib %d: want 1 to %d", mib, MaxBulkMiB)
	case o.Timeout <= 0:
		return fmt.Errorf("--timeout %v: want a positive duration", o.Timeout)
	}
	if _, _, err := ParseTarget(o.Target); err != nil {
		return err
	}
	if o.Sink != "" {
		if u, _, err := ParseTarget(o.Sink); err != nil || u == nil {
			return fmt.Errorf("--sink %q: want the http(s) URL of a vesload serve --sink listener", o.Sink)
		}
	}
	return nil
}

// SetTLS sets TLS from t (tlsconf.Options.Client) and UseTLS when t
// names a CA or a client certificate: those only mean something over
// TLS, so a bare HOST:PORT given one is probed as a TLS listener.
func (o *Options) SetTLS(t tlsconf.Options) error {
	cfg, err := t.Client("")
	if err != nil {
		return err
	}
	o.TLS, o.UseTLS = cfg, t.CAFile != "" || t.CertFile != ""
	return nil
}
