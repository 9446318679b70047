package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	hvemu "github.com/vesload/vesload/testserver/hv"
)

// hvServeFlags are the HV-VES emulator's flags of `vesload serve`.
type hvServeFlags struct {
	listen, monitor           string
	tlsCert, tlsKey, clientCA string
	idle                      time.Duration
	readRate                  int64
	maxPayload                int
}

func addHVServeFlags(fs *pflag.FlagSet) *hvServeFlags {
	f := &hvServeFlags{}
	fs.StringVar(&f.listen, "hv-listen", "", "also run the HV-VES emulator: WTP frames over TCP on `HOST:PORT` (the collector uses 6061)")
	fs.StringVar(&f.monitor, "hv-monitor", "127.0.0.1:6060", "the HV-VES emulator's /stats, /metrics (hvves_* names) and /health/ready on `HOST:PORT`")
	fs.StringVar(&f.tlsCert, "hv-tls-cert", "", "HV-VES over TLS with this PEM certificate `FILE` (needs --hv-tls-key)")
	fs.StringVar(&f.tlsKey, "hv-tls-key", "", "PEM private key `FILE` of --hv-tls-cert")
	fs.StringVar(&f.clientCA, "hv-client-ca", "", "require HV-VES client certificates signed by this PEM CA `FILE`")
	fs.DurationVar(&f.idle, "hv-idle-timeout", hvemu.DefaultIdleTimeout, "close HV-VES connections idle this long")
	fs.Int64Var(&f.readRate, "hv-read-rate", 0, "read each HV-VES connection at most this many `BYTES` a second (0: no limit), to create back-pressure")
	fs.IntVar(&f.maxPayload, "hv-max-payload", hvemu.MaxPayload, "disconnect HV-VES clients announcing a larger payload (bytes)")
	return f
}

// options checks the flags; every error names its flag.
func (f *hvServeFlags) options(log *lineWriter) (hvemu.Options, error) {
	o := hvemu.Options{Addr: f.listen, TLSCertFile: f.tlsCert, TLSKeyFile: f.tlsKey, ClientCAFile: f.clientCA,
		IdleTimeout: f.idle, ReadRate: f.readRate, MaxPayload: f.maxPayload, Logf: log.printf}
	switch {
	case f.listen == "" && (f.tlsCert != "" || f.tlsKey != "" || f.clientCA != ""):
		return o, errors.New("--hv-tls-cert, --hv-tls-key and --hv-client-ca need --hv-listen")
	case (f.tlsCert == "") != (f.tlsKey == ""):
		return o, errors.New("--hv-tls-cert and --hv-tls-key: give both")
	case f.clientCA != "" && f.tlsCert == "":
		return o, errors.New("--hv-client-ca needs --hv-tls-cert and --hv-tls-key")
	case f.idle <= 0:
		return o, fmt.Errorf("--hv-idle-timeout: want a positive duration, got %v", f.idle)
	case f.readRate < 0:
		return o, fmt.Errorf("--hv-read-rate: must not be negative, got %d", f.readRate)
	case f.maxPayload < 1 || f.maxPayload > hvemu.MaxPayload:
		return o, fmt.Errorf("--hv-max-payload: want 1 to %d, got %d", hvemu.MaxPayload, f.maxPayload)
	}
	return o, nil
}

// hvAddrs are where a running HV-VES emulator listens.
type hvAddrs struct{ listen, monitor string }

// start runs the HV-VES emulator and its monitoring endpoints when
// --hv-listen is given; the returned func stops them and logs a summary.
func (f *hvServeFlags) start(o hvemu.Options, log *lineWriter) (func(), hvAddrs, error) {
	if f.listen == "" {
		return func() {}, hvAddrs{}, nil
	}
	srv, err := hvemu.Start(o)
	if err != nil {
		return nil, hvAddrs{}, err
	}
	mon, monAddr, err := srv.ServeHTTP(f.monitor)
	if err != nil {
		srv.Close()
		return nil, hvAddrs{}, fmt.Errorf("--hv-monitor: %w", err)
	}
	proto := "TCP"
	if srv.TLS() {
		proto = "TLS"
		if o.ClientCAFile != "" {
			proto += " with client certificates"
		}
	}
	log.printf("HV-VES emulator on %s (%s); /stats and /metrics on http://%s", srv.Addr(), proto, monAddr)
	return func() {
		_ = mon.Close() // stops the monitoring endpoints; nothing is left to flush
		srv.Close()
		st := srv.Stats()
		log.printf("HV-VES: %d connections, %d messages received (%d accepted, %d dropped), %d duplicate event ids, %d clients rejected",
			st.ConnectionsTotal, st.Received, st.Accepted, st.DroppedTotal(), st.DuplicateEventIDs, st.RejectedTotal())
	}, hvAddrs{srv.Addr(), monAddr}, nil
}
