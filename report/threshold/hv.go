package threshold

import (
	"fmt"

	"github.com/vesload/vesload/report/result"
)

const hvMetricList = "hv.lost, hv.received, hv.dropped, hv.duplicates, hv.written, hv.failed, hv.not_sent, hv.disconnected, " +
	"hv.reconnects, hv.mbps, hv.peak_mbps, hv.write_blocked_p99"

// hvMetric resolves the metrics of HV-VES runs (hv.NAME). MB/s figures
// are compared as plain numbers ("hv.peak_mbps>4"); hv.lost and the other
// receiver figures need the receiving side to have been observed.
func hvMetric(field string) (metric, *nameError) {
	sent := func(f func(hv *result.HV) float64) func(*result.Result) (float64, string) {
		return func(r *result.Result) (float64, string) {
			if r.HV == nil {
				return 0, "not an HV-VES run"
			}
			return f(r.HV), ""
		}
	}
	recv := func(f func(rc *result.HVReceiver) float64) func(*result.Result) (float64, string) {
		return func(r *result.Result) (float64, string) {
			switch {
			case r.HV == nil:
				return 0, "not an HV-VES run"
			case r.HV.Receiver == nil:
				return 0, "the receiving side was not observed"
			}
			return f(r.HV.Receiver), ""
		}
	}
	m := metric{name: "hv." + field, kind: kindCount}
	switch field {
	case "lost":
		m.get = recv(func(rc *result.HVReceiver) float64 { return float64(rc.Lost) })
	case "received":
		m.get = recv(func(rc *result.HVReceiver) float64 { return float64(rc.Received) })
	case "dropped": // received, then refused by the collector (routing, invalid, …)
		m.get = recv(func(rc *result.HVReceiver) float64 {
			var n int64
			for _, v := range rc.Dropped {
				n += v
			}
			return float64(n)
		})
	case "duplicates":
		m.get = func(r *result.Result) (float64, string) {
			if r.HV != nil && r.HV.Receiver != nil && r.HV.Receiver.Duplicates == nil {
				return 0, "the receiver does not count duplicates"
			}
			return recv(func(rc *result.HVReceiver) float64 { return float64(*rc.Duplicates) })(r)
		}
	case "written":
		m.get = sent(func(hv *result.HV) float64 { return float64(hv.Sent.Written) })
	case "failed":
		m.get = sent(func(hv *result.HV) float64 { return float64(hv.Sent.Failed) })
	case "not_sent":
		m.get = sent(func(hv *result.HV) float64 { return float64(hv.Sent.NotSent) })
	case "disconnected": // due while the producer had no connection: errors never sent
		m.get = sent(func(hv *result.HV) float64 { return float64(hv.NotSentBy[result.ClassDisconnected]) })
	case "reconnects":
		m.get = sent(func(hv *result.HV) float64 { return float64(hv.Reconnects) })
	case "mbps":
		m.get = sent(func(hv *result.HV) float64 { return hv.MBps })
	case "peak_mbps":
		m.get = sent(func(hv *result.HV) float64 { return hv.PeakMBps })
	case "write_blocked_p99":
		m.kind, m.get = kindLatency, sent(func(hv *result.HV) float64 { return hv.WriteBlocked.P99 })
	default:
		return metric{}, &nameError{len("hv."), fmt.Sprintf("unknown HV-VES metric %q (want %s)", field, hvMetricList)}
	}
	return m, nil
}
