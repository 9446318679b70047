package hv

import (
	"errors"
	"fmt"
	"math"
	"net/http"
)

// Check validates Options before anything starts, as `vesload serve`
// takes them from its --hv-* flags: its errors name those flags, where
// Start's name the fields. An empty Addr means the emulator is not run,
// so TLS settings without it are an error.
func (o Options) Check() error {
	switch {
	case o.Addr == "" && (o.TLSCertFile != "" || o.TLSKeyFile != "" || o.ClientCAFile != ""):
		return errors.New("--hv-tls-cert, --hv-tls-key and --hv-client-ca need --hv-listen")
	case (o.TLSCertFile == "") != (o.TLSKeyFile == ""):
		return errors.New("--hv-tls-cert and --hv-tls-key: give both")
	case o.ClientCAFile != "" && o.TLSCertFile == "":
		return errors.New("--hv-client-ca needs --hv-tls-cert and --hv-tls-key")
	case o.IdleTimeout <= 0:
		return fmt.Errorf("--hv-idle-timeout: want a positive duration, got %v", o.IdleTimeout)
	case o.ReadRate < 0:
		return fmt.Errorf("--hv-read-rate: must not be negative, got %d", o.ReadRate)
	case !(o.ProcessRate >= 0) || math.IsInf(o.ProcessRate, 0):
		return fmt.Errorf("--hv-process-rate: want 0 or more messages a second, got %g", o.ProcessRate)
	case o.MaxPayload < 1 || o.MaxPayload > MaxPayload:
		return fmt.Errorf("--hv-max-payload: want 1 to %d, got %d", MaxPayload, o.MaxPayload)
	}
	return nil
}

// Monitored is an emulator with its monitoring endpoints (/stats,
// /metrics, /health/ready) on an address of their own, as `vesload
// serve --hv-listen` runs it: one value to start and stop, which says
// where it listens on start and what it received on Close, through
// Options.Logf.
type Monitored struct {
	srv     *Server
	mon     *http.Server
	monAddr string
}

// StartMonitored starts an emulator and its monitoring endpoints on
// monitorAddr.
func StartMonitored(o Options, monitorAddr string) (*Monitored, error) {
	srv, err := Start(o)
	if err != nil {
		return nil, err
	}
	mon, monAddr, err := srv.ServeHTTP(monitorAddr)
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("--hv-monitor: %w", err)
	}
	proto := "TCP"
	if srv.TLS() {
		proto = "TLS"
		if o.ClientCAFile != "" {
			proto += " with client certificates"
		}
	}
	srv.logf("HV-VES emulator on %s (%s); /stats and /metrics on http://%s", srv.Addr(), proto, monAddr)
	return &Monitored{srv: srv, mon: mon, monAddr: monAddr}, nil
}

// Addr is where the emulator listens for WTP frames.
func (m *Monitored) Addr() string { return m.srv.Addr() }

// MonitorAddr is where the monitoring endpoints listen.
func (m *Monitored) MonitorAddr() string { return m.monAddr }

// Stats are the emulator's counters.
func (m *Monitored) Stats() Stats { return m.srv.Stats() }

// Close stops the monitoring endpoints and the emulator, then logs the
// emulator's Summary.
func (m *Monitored) Close() {
	_ = m.mon.Close() // stops the monitoring endpoints; nothing is left to flush
	m.srv.Close()
	m.srv.logf("%s", m.srv.Stats().Summary())
}

// Summary is the one line an emulator's counters come to when it stops.
func (st Stats) Summary() string {
	return fmt.Sprintf("HV-VES: %d connections, %d messages received (%d accepted, %d dropped), %d duplicate event ids, %d clients rejected",
		st.ConnectionsTotal, st.Received, st.Accepted, st.DroppedTotal(), st.DuplicateEventIDs, st.RejectedTotal())
}
