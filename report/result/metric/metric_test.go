package metric_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/result/metric"
)

// TestDeclarations holds every declaration to what its readers rely on:
// one spelling one metric, a unit that fits the kind, a reader and a line
// of documentation, and ranks that order compare's rows and a history's
// series without a tie.
func TestDeclarations(t *testing.T) {
	t.Parallel()
	wantUnit := map[metric.Kind][]string{
		metric.Count: {""}, metric.Gauge: {""}, metric.Rate: {"/s"}, metric.Latency: {"ms"},
		metric.Bytes: {"B"}, metric.Percent: {"%"}, metric.Ratio: {"%"},
	}
	seen := map[string]bool{}
	rows, trends := map[int]string{}, map[int]string{}
	for _, m := range metric.All() {
		for _, s := range append([]string{m.Name}, m.Aliases...) {
			if seen[s] {
				t.Errorf("%s: spelling %q declared twice", m.Name, s)
			}
			seen[s] = true
			if s != strings.ToLower(s) {
				t.Errorf("%s: %q is not lower case: gates are lower-cased before lookup", m.Name, s)
			}
		}
		if !slices.Contains(wantUnit[m.Kind], m.Unit) {
			t.Errorf("%s: unit %q does not fit its kind (want %q)", m.Name, m.Unit, wantUnit[m.Kind])
		}
		if m.Read == nil || m.Doc == "" {
			t.Errorf("%s: no reader or no description", m.Name)
			continue
		}
		if m.Family != "" && !strings.HasPrefix(m.Name, m.Family) {
			t.Errorf("%s: not under its family's prefix %q", m.Name, m.Family)
		}
		if m.Row > 0 {
			if prev, ok := rows[m.Row]; ok {
				t.Errorf("%s and %s share compare's row %d", prev, m.Name, m.Row)
			}
			rows[m.Row] = m.Name
			if m.Field == "" || m.Label == "" {
				t.Errorf("%s: a row of compare's table without a field or a label", m.Name)
			}
		}
		if m.Trend > 0 {
			if prev, ok := trends[m.Trend]; ok {
				t.Errorf("%s and %s share a history's place %d", prev, m.Name, m.Trend)
			}
			trends[m.Trend] = m.Name
		}
		if _, missing := m.Read(&result.Result{}); missing == "" && m.Kind == metric.Latency && m.Merge == metric.Histogram {
			t.Errorf("%s: an empty result has a latency distribution", m.Name)
		}
	}
	for _, f := range metric.Families() {
		if f.Want == "" || f.Noun == "" {
			t.Errorf("family %q: nothing to say what it wants", f.Prefix)
		}
	}
}

// TestLookup holds the names README's tables give (and gates of older
// results carry) to the metrics they have always meant.
func TestLookup(t *testing.T) {
	t.Parallel()
	r := &result.Result{
		Requests: result.Requests{Scheduled: 10, Sent: 9, OK: 7, Errors: 3, NotSent: 1},
		Errors:   map[string]int64{"http_503": 2, "http_500": 1, result.ClassPoolExhausted: 1},
		Latency:  result.Summary{Count: 7, Avg: 4, P99: 12, P999: 15, Max: 20},
		HV:       &result.HV{MBps: 2.5, Receiver: &result.HVReceiver{Received: 8}},
		Delivery: &result.Delivery{Expected: 9, Delivered: 6, Lost: 3},
	}
	for _, tc := range []struct {
		name, canonical string
		want            float64
		missing         bool
	}{
		{"p(99)", "p99", 12, false},
		{"p99.9", "p999", 15, false},
		{"p(99.9)", "p999", 15, false},
		{"avg", "avg", 4, false},
		{"ok", "ok", 7, false},
		{"errors.http_503", "errors.http_503", 2, false},
		{"errors.http_5xx", "errors.http_5xx", 3, false},
		{"errors.pool_exhausted", "errors.pool_exhausted", 1, false},
		{"hv.mbps", "hv.mbps", 2.5, false},
		{"hv.received", "hv.received", 8, false},
		{"delivery.delivered", "delivery.delivered", 6, false},
		{"e2e_p99", "e2e_p99", 0, true},
		{"target_cpu_max", "target_cpu_max", 0, true},
		{"dispatch_lag_p(99)", "dispatch_lag_p99", 0, false},
	} {
		m, ok := metric.Lookup(tc.name)
		if !ok {
			t.Errorf("Lookup(%q): not found", tc.name)
			continue
		}
		v, missing := m.Read(r)
		if m.Name != tc.canonical || v != tc.want || (missing != "") != tc.missing {
			t.Errorf("Lookup(%q) = %s reading %v (missing %q), want %s reading %v (missing: %v)",
				tc.name, m.Name, v, missing, tc.canonical, tc.want, tc.missing)
		}
	}
	for _, name := range []string{"delivery.lost_pct", "errors.http_600", "errors.http_5o3", "latency", "hv.speed"} {
		if m, ok := metric.Lookup(name); ok {
			t.Errorf("Lookup(%q) = %s, want no gateable metric", name, m.Name)
		}
	}
}

// TestOrders holds the orders readers show: compare's rows as the seed
// tables have them, a history's default series, and the list of
// messages.
func TestOrders(t *testing.T) {
	t.Parallel()
	var rows, trend []string
	for _, m := range metric.Compared() {
		rows = append(rows, m.Field)
	}
	for _, m := range metric.TrendDefaults() {
		trend = append(trend, m.Name)
	}
	for _, tc := range []struct{ what, got, want string }{
		{"compare's rows", strings.Join(rows, " "), "latency_ms.avg latency_ms.max latency_ms.p50 latency_ms.p95 latency_ms.p99 " +
			"service_ms.p99 error_rate rps.achieved target.cpu_avg_pct target.cpu_max_pct hv.peak_mbps hv.mbps hv.receiver.lost " +
			"delivery.e2e_ms.avg delivery.e2e_ms.p99 delivery.lost_pct"},
		{"a history's defaults", strings.Join(trend, " "), "avg p50 p95 p99 max error_rate rps target_cpu_avg target_rss_max " +
			"generator_cpu_avg delivery.lost e2e_p99 hv.mbps hv.peak_mbps hv.lost"},
		{"the list", metric.List(), "avg, min, max, p50, p90, p95, p99, p999, service_*, dispatch_lag_*, " +
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
