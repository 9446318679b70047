package threshold

import (
	"testing"

	"github.com/vesload/vesload/report/result/metric"
)

// The lists the grammar's messages give, as the registry declares them.
var (
	metricList   = metric.List()
	classList    = family("errors.").Want
	hvMetricList = family("hv.").Want
	deliveryList = family("delivery.").Want
)

// family is the registry's family of prefix; the zero Family when there
// is none.
func family(prefix string) metric.Family {
	for _, f := range metric.Families() {
		if f.Prefix == prefix {
			return f
		}
	}
	return metric.Family{}
}

// TestListsAsBefore holds the messages' lists to the words they have
// always had: the registry took them over without a change.
func TestListsAsBefore(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ what, got, want string }{
		{"classes", classList, "http_<code>, http_5xx, timeout, conn_refused, conn_reset, dns, tls, pool_exhausted, aborted, response_too_large, bad_response, other"},
		{"HV-VES", hvMetricList, "hv.lost, hv.received, hv.dropped, hv.duplicates, hv.written, hv.failed, hv.not_sent, hv.disconnected, " +
			"hv.reconnects, hv.mbps, hv.peak_mbps, hv.write_blocked_p99"},
		{"delivery", deliveryList, "delivered, lost, lost_though_accepted, delivered_though_rejected, duplicates, out_of_order, foreign"},
		{"metrics", metricList, "avg, min, max, p50, p90, p95, p99, p999, service_*, dispatch_lag_*, " +
			"error_rate, errors, errors.<class>, rps, sent, not_sent, scheduled, ok, " +
			"target_cpu_max, target_cpu_avg, target_rss_max, generator_cpu_max, generator_cpu_avg, generator_rss_max, " +
			"hv.lost, hv.received, hv.dropped, hv.duplicates, hv.written, hv.failed, hv.not_sent, hv.disconnected, " +
			"hv.reconnects, hv.mbps, hv.peak_mbps, hv.write_blocked_p99, delivery.<count>, e2e_*"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.what, tc.got, tc.want)
		}
	}
}
