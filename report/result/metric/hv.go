package metric

import "github.com/vesload/vesload/report/result"

// Names of HV-VES's metrics that the verdict's built-in rules hold a run
// to.
const (
	// HVDisconnected counts messages due while their producer had no
	// connection.
	HVDisconnected = hvPrefix + "disconnected"
	// HVReceived counts messages the observed receiver received.
	HVReceived = hvPrefix + "received"
	// HVDropped counts messages the receiver received and then refused.
	HVDropped = hvPrefix + "dropped"
)

const (
	hvPrefix     = "hv."
	notHV        = "not an HV-VES run"
	isNotHV      = "is not an HV-VES run"
	noReceiver   = "the receiving side was not observed"
	noHVReceiver = "did not observe the receiver"
)

// hv declares the metrics of HV-VES runs (hv.NAME): what the producers
// wrote, and what the receiving side counted when it was observed. MB/s
// figures are gauges, gated as plain numbers ("hv.peak_mbps>4").
func hv() []Metric {
	sent := func(name, doc string, worse Direction, merge Merge, of func(h *result.HV) float64, opts ...option) Metric {
		return declare(Metric{Name: hvPrefix + name, Family: hvPrefix, Kind: Count, Merge: merge, Worse: worse, Doc: doc,
			Read: func(r *result.Result) (float64, string) {
				if r.HV == nil {
					return 0, notHV
				}
				return of(r.HV), ""
			}}, opts...)
	}
	recv := func(name, doc string, worse Direction, of func(rc *result.HVReceiver) (float64, string), opts ...option) Metric {
		return declare(Metric{Name: hvPrefix + name, Family: hvPrefix, Kind: Count, Merge: Once, Worse: worse, Doc: doc,
			Read: func(r *result.Result) (float64, string) {
				switch {
				case r.HV == nil:
					return 0, notHV
				case r.HV.Receiver == nil:
					return 0, noReceiver
				}
				return of(r.HV.Receiver)
			}}, opts...)
	}
	blocked := sent("write_blocked_p99", "99th percentile of the time a write waited for the socket", WorseUp, Histogram,
		func(h *result.HV) float64 { return h.WriteBlocked.P99 })
	blocked.Kind, blocked.Unit = Latency, "ms"
	return []Metric{
		recv("lost", "messages written that the receiver never counted", WorseUp,
			func(rc *result.HVReceiver) (float64, string) { return float64(rc.Lost), "" },
			row(13, "hv.receiver.lost", "HV-VES messages lost", noHVReceiver), trend(15)),
		recv("received", "messages the receiver counted", WorseDown,
			func(rc *result.HVReceiver) (float64, string) { return float64(rc.Received), "" }),
		recv("dropped", "messages received, then refused by the collector (routing, invalid, …)", WorseUp,
			func(rc *result.HVReceiver) (float64, string) {
				var n int64
				for _, v := range rc.Dropped {
					n += v
				}
				return float64(n), ""
			}),
		recv("duplicates", "messages the receiver counted more than once", WorseUp,
			func(rc *result.HVReceiver) (float64, string) {
				if rc.Duplicates == nil {
					return 0, "the receiver does not count duplicates"
				}
				return float64(*rc.Duplicates), ""
			}),
		sent("written", "messages written to a connection", WorseDown, Sum, func(h *result.HV) float64 { return float64(h.Sent.Written) }),
		sent("failed", "messages whose write failed", WorseUp, Sum, func(h *result.HV) float64 { return float64(h.Sent.Failed) }),
		sent("not_sent", "messages due but never written", WorseUp, Sum, func(h *result.HV) float64 { return float64(h.Sent.NotSent) }),
		sent("disconnected", "messages due while their producer had no connection: errors never sent", WorseUp, Sum,
			func(h *result.HV) float64 { return float64(h.NotSentBy[result.ClassDisconnected]) }),
		sent("reconnects", "times a producer connected again", WorseUp, Sum, func(h *result.HV) float64 { return float64(h.Reconnects) }),
		sent("mbps", "average data rate written, in MB/s", WorseDown, Derived, func(h *result.HV) float64 { return h.MBps },
			gauge(), row(12, "hv.mbps", "HV-VES average data rate (MB/s)", isNotHV), trend(13)),
		sent("peak_mbps", "highest data rate written in a second, in MB/s", WorseDown, Derived, func(h *result.HV) float64 { return h.PeakMBps },
			gauge(), row(11, "hv.peak_mbps", "HV-VES peak data rate (MB/s)", isNotHV), trend(14)),
		blocked,
	}
}

// hvFamily names HV-VES's metrics in full, as its messages always have.
func hvFamily() Family {
	return Family{Prefix: hvPrefix, Noun: "HV-VES metric", Want: members(hv(), hvPrefix, true)}
}
