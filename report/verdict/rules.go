package verdict

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
)

// Rule is one built-in rule: a gate the run is held to without being
// asked, and only when the result breaks it, so that a run that keeps the
// rule carries no extra gate.
type Rule struct {
	// Gate is the threshold expression added, failed, when the rule is
	// broken, e.g. "ok>0".
	Gate string
	// Broken says whether res breaks the rule, and why, in one line for
	// the result's warnings; Judge adds what it means for the verdict.
	Broken func(res *result.Result) (why string, broken bool)
	// Yields is true when a gate the user set on the same metric decides
	// instead of the rule (the user asked for "hv.dropped<10", say).
	Yields bool
}

// Rules returns the built-in rules, in the order their gates are listed.
func Rules() []Rule {
	return []Rule{
		{Gate: metric.OK + ">0", Broken: noSuccess},
		{Gate: metric.HVDisconnected + "==0", Broken: disconnected, Yields: true},
		{Gate: metric.HVReceived + ">0", Broken: nothingReceived, Yields: true},
		{Gate: metric.HVDropped + "==0", Broken: dropped, Yields: true},
		{Gate: metric.DeliveryDelivered + ">0", Broken: nothingDelivered, Yields: true},
	}
}

// noSuccess: requests were due but none succeeded. A CI job must not pass
// against a collector that refused everything.
func noSuccess(r *result.Result) (string, bool) {
	if r.Requests.OK > 0 || r.Requests.Scheduled == 0 {
		return "", false
	}
	return "no request succeeded", true
}

// disconnected: HV-VES messages fell due while their producer had no
// connection and were never sent.
func disconnected(r *result.Result) (string, bool) {
	if r.HV == nil || r.HV.NotSentBy[result.ClassDisconnected] == 0 {
		return "", false
	}
	return fmt.Sprintf("%d of the %d messages scheduled fell due while their producer had no connection"+
		" and were never sent (counted as errors, class disconnected)",
		r.HV.NotSentBy[result.ClassDisconnected], r.HV.Sent.Scheduled), true
}

// nothingReceived: messages were written but the observed receiver counted
// none of them.
func nothingReceived(r *result.Result) (string, bool) {
	if r.HV == nil || r.HV.Receiver == nil || r.HV.Receiver.Received > 0 || r.HV.Sent.Written == 0 {
		return "", false
	}
	return fmt.Sprintf("the receiver (%s) received none of the %d messages written (plain TCP to a TLS listener,"+
		" or the wrong port?)", r.HV.Receiver.Source, r.HV.Sent.Written), true
}

// dropped: the observed receiver dropped messages it received.
func dropped(r *result.Result) (string, bool) {
	if r.HV == nil || r.HV.Receiver == nil {
		return "", false
	}
	rc := r.HV.Receiver
	var n int64
	for _, c := range rc.Dropped {
		n += c
	}
	if n == 0 {
		return "", false
	}
	return fmt.Sprintf("the receiver (%s) dropped %d of the %d messages it received (%s), accepting %d",
		rc.Source, n, rc.Received, dropCauses(rc.Dropped), rc.Accepted), true
}

// nothingDelivered: the run's events were followed onto the collector's
// output topic (--consume), some were expected there and none arrived
// within the grace: a collector that answers 202 and publishes nothing.
func nothingDelivered(r *result.Result) (string, bool) {
	d := r.Delivery
	if d == nil || d.Delivered > 0 || d.Expected == 0 {
		return "", false
	}
	why := fmt.Sprintf("none of the %d events expected on the output topic was delivered (%d lost)", d.Expected, d.Lost)
	if d.Foreign > 0 {
		why += fmt.Sprintf("; %d records of the topic were not the run's (does the body carry the run's eventId?)", d.Foreign)
	}
	return why, true
}

// dropCauses lists drop causes as "routing=10, invalid=2" in a stable order.
func dropCauses(m map[string]int64) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
