package hv

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// DefaultIdleTimeout is the collector's server.idleTimeoutSec default.
const DefaultIdleTimeout = 60 * time.Second

// DefaultRoutes is the routing of the collector's documented dynamic
// configuration: perf3gpp events go to HV_VES_PERF3GPP, stndDefined
// events by their namespace to the 3GPP topics; any other domain is
// dropped as unrouted.
func DefaultRoutes() map[string]string {
	return map[string]string{
		"perf3gpp":                       "HV_VES_PERF3GPP",
		"ves-3gpp-fault-supervision":     "SEC_3GPP_FAULTSUPERVISION_OUTPUT",
		"ves-3gpp-provisioning":          "SEC_3GPP_PROVISIONING_OUTPUT",
		"ves-3gpp-heartbeat":             "SEC_3GPP_HEARTBEAT_OUTPUT",
		"ves-3gpp-performance-assurance": "SEC_3GPP_PERFORMANCEASSURANCE_OUTPUT",
	}
}

// Options configure an emulator. The zero value listens on a free
// loopback port in plain TCP with the collector's defaults.
type Options struct {
	// Addr is the TCP address to listen on (127.0.0.1:0 when empty).
	Addr string
	// TLSCertFile and TLSKeyFile (PEM) switch the listener to TLS.
	TLSCertFile, TLSKeyFile string
	// ClientCAFile (PEM) makes a client certificate signed by one of its
	// authorities mandatory, as the collector requires.
	ClientCAFile string
	// IdleTimeout closes a connection that sent nothing for this long
	// (DefaultIdleTimeout when 0; negative: never).
	IdleTimeout time.Duration
	// ReadRate limits how many bytes a second are read from each
	// connection (0: no limit), to make clients feel back-pressure.
	ReadRate int64
	// ProcessRate bounds the messages a second handled over all
	// connections (0: no limit), as a collector of known capacity: what
	// comes faster waits in the connections' buffers, so that its travel
	// time grows and, once the buffers are full, the producers block.
	ProcessRate float64
	// MaxPayload is the largest payload accepted (MaxPayload when 0).
	MaxPayload int
	// Routes maps a domain (for domain stndDefined: the
	// stndDefinedNamespace) to its output topic (DefaultRoutes when nil).
	Routes map[string]string
	// OnMessage, when set, is called for every accepted message on the
	// connection's goroutine; the message's slices are valid only during
	// the call.
	OnMessage func(*Message)
	// Now is the clock travel times are measured with (time.Now when nil).
	Now func() time.Time
	// Logf receives one line per notable event (nil: silent).
	Logf func(format string, args ...any)
	// MaxTrackedIDs bounds the eventIds remembered for duplicate
	// detection (10 million when 0), as 64-bit hashes; past it duplicates
	// are not checked.
	MaxTrackedIDs int
}

func (o Options) normalise() (Options, error) {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxPayload == 0 {
		o.MaxPayload = MaxPayload
	}
	if o.MaxPayload < 0 || o.MaxPayload > MaxPayload {
		return o, fmt.Errorf("max payload %d: want 1 to %d bytes", o.MaxPayload, MaxPayload)
	}
	if o.ReadRate < 0 {
		return o, fmt.Errorf("read rate %d: must not be negative", o.ReadRate)
	}
	if !(o.ProcessRate >= 0) || math.IsInf(o.ProcessRate, 0) {
		return o, fmt.Errorf("process rate %g: want 0 or more messages a second", o.ProcessRate)
	}
	if (o.TLSCertFile == "") != (o.TLSKeyFile == "") {
		return o, errors.New("TLS certificate and key: give both")
	}
	if o.ClientCAFile != "" && o.TLSCertFile == "" {
		return o, errors.New("client CA file needs a TLS certificate and key")
	}
	if o.Routes == nil {
		o.Routes = DefaultRoutes()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxTrackedIDs == 0 {
		o.MaxTrackedIDs = 10_000_000
	}
	return o, nil
}
