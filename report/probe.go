package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
)

// WriteProbe writes what `vesload probe` measured as a few aligned lines:
// the target, then each step that was done (TCP connects, the TLS
// handshake, the HTTP round trip, the bulk transfer). It lives here, not
// in loadgen/probe, because that package measures and never formats; a
// report cut short by a failing step renders the steps before it.
func WriteProbe(w io.Writer, r *result.Probe) error {
	ew := format.NewPrinter(w)
	ew.Printf("probe %s (%s)\n", r.Target, r.Address)
	if len(r.ConnectMs) == 0 {
		return ew.Err()
	}
	ew.Printf("  tcp connect    median %.3f ms over %d connections\n", r.ConnectMedianMs, len(r.ConnectMs))
	if r.TLSVersion != "" {
		ew.Printf("  tls handshake  %.3f ms (%s)\n", r.TLSHandshakeMs, r.TLSVersion)
	}
	if r.HTTPStatus != 0 {
		ew.Printf("  http round trip %.3f ms (status %d)\n", r.RoundTripMs, r.HTTPStatus)
	}
	if b := r.Bulk; b != nil {
		ew.Printf("  bulk to sink   %.1f MB/s (%d MiB in %.3f s to %s)\n", b.MBps, b.Bytes>>20, b.Seconds, b.Sink)
	}
	return ew.Err()
}

// WriteProbeJSON writes the probe's figures as one indented JSON
// document (`vesload probe --json`), for scripts that keep them beside a
// run's result.
func WriteProbeJSON(w io.Writer, r *result.Probe) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write probe report: %w", err)
	}
	return nil
}

// WriteProbeAs writes the probe's figures as `vesload probe` prints
// them: as text (WriteProbe), or as one JSON document with asJSON
// (WriteProbeJSON).
func WriteProbeAs(w io.Writer, r *result.Probe, asJSON bool) error {
	if asJSON {
		return WriteProbeJSON(w, r)
	}
	return WriteProbe(w, r)
}
