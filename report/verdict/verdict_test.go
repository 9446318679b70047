package verdict

import (
	"slices"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// TestRulesParse: every built-in gate parses (Judge panics otherwise).
func TestRulesParse(t *testing.T) {
	for _, r := range Rules() {
		if _, err := threshold.Parse(r.Gate); err != nil {
			t.Errorf("rule %q: %v", r.Gate, err)
		}
	}
}

func gates(t *testing.T, exprs ...string) []threshold.Threshold {
	t.Helper()
	g, err := threshold.ParseAll(exprs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// rest is a REST result with ok of 100 requests succeeding.
func rest(ok int64) *result.Result {
	return &result.Result{Requests: result.Requests{Scheduled: 100, Sent: 100, OK: ok, Errors: 100 - ok},
		Errors: map[string]int64{"http_500": 100 - ok}}
}

// hvRun is an HV-VES result of 20 messages with the given disconnects,
// receiver count and drops (a nil receiver when received < 0).
func hvRun(disconnected, received int64, dropped map[string]int64) *result.Result {
	r := &result.Result{Requests: result.Requests{Scheduled: 20, Sent: 20 - disconnected, OK: 20 - disconnected, Errors: disconnected},
		HV: &result.HV{Sent: result.HVCounts{Scheduled: 20, Written: 20 - disconnected},
			NotSentBy: map[string]int64{result.ClassDisconnected: disconnected}}}
	if received >= 0 {
		r.HV.Receiver = &result.HVReceiver{Source: "emulator", Received: received, Accepted: received, Dropped: dropped}
	}
	return r
}

// delivered is a REST result whose 20 events were followed onto the
// output topic, n of them delivered.
func delivered(n int64) *result.Result {
	r := rest(100)
	r.Delivery = &result.Delivery{Expected: 20, Delivered: n, Lost: 20 - n}
	return r
}

func onShard(r *result.Result) *result.Result {
	r.Shard = &result.ShardInfo{Index: 1, Count: 3}
	return r
}

func TestJudge(t *testing.T) {
	for _, c := range []struct {
		name     string
		res      *result.Result
		opts     Options
		want     []string // the gates, in order, as "expr pass|FAIL"
		warnings []string // a part of each warning
		verdict  Verdict
	}{
		{"all ok", rest(100), Options{}, nil, nil, Passed},
		{"some ok", rest(1), Options{Gates: gates(t, "error_rate<1%")}, []string{"error_rate<1% FAIL"}, nil, Failed},
		{"none ok", rest(0), Options{}, []string{"ok>0 FAIL"}, []string{"no request succeeded"}, Failed},
		{"none ok, allowed", rest(0), Options{AllowErrors: true}, nil, []string{"no request succeeded"}, Passed},
		{"nothing due", &result.Result{}, Options{}, nil, nil, Passed},
		{"user gates first", rest(0), Options{Gates: gates(t, "ok<1"), AbortGates: gates(t, "error_rate<5%")},
			[]string{"ok<1 pass", "abort-on-fail: error_rate<5% (whole run) FAIL", "ok>0 FAIL"}, []string{"no request succeeded"}, Failed},
		{"hv clean", hvRun(0, 20, nil), Options{}, nil, nil, Passed},
		{"hv disconnected", hvRun(3, 17, nil), Options{}, []string{"hv.disconnected==0 FAIL"}, []string{"3 of the 20 messages"}, Failed},
		{"hv nothing received", hvRun(0, 0, nil), Options{}, []string{"hv.received>0 FAIL"}, []string{"received none of the 20"}, Failed},
		{"hv no receiver seen", hvRun(0, -1, nil), Options{}, nil, nil, Passed},
		{"hv dropped", hvRun(0, 20, map[string]int64{"routing": 5, "invalid": 2}), Options{},
			[]string{"hv.dropped==0 FAIL"}, []string{"dropped 7 of the 20 messages it received (invalid=2, routing=5)"}, Failed},
		{"hv user gate decides", hvRun(0, 20, map[string]int64{"routing": 5}), Options{Gates: gates(t, "hv.dropped<10")},
			[]string{"hv.dropped<10 pass"}, []string{"dropped 5"}, Passed},
		{"hv allowed", hvRun(2, 0, map[string]int64{"routing": 1}), Options{AllowErrors: true}, nil,
			[]string{"no connection", "received none", "dropped 1"}, Passed},
		{"nothing delivered", delivered(0), Options{}, []string{"delivery.delivered>0 FAIL"},
			[]string{"none of the 20 events expected on the output topic was delivered (20 lost): the run fails (exit 3)"}, Failed},
		{"some delivered", delivered(1), Options{}, nil, nil, Passed},
		{"delivery gated by the user", delivered(0), Options{Gates: gates(t, "delivery.delivered>=0")},
			[]string{"delivery.delivered>=0 pass"}, []string{"your gate delivery.delivered>=0 decides"}, Passed},
		{"a shard defers", onShard(rest(0)), Options{}, []string{"ok>0 FAIL"},
			[]string{"no request succeeded: this shard (1/3) exits 0: its gates are decided on the merged result"}, Deferred},
		{"a rule after a failed gate", rest(0), Options{AllowErrors: true, Gates: gates(t, "ok>5")}, []string{"ok>5 FAIL"},
			[]string{"no request succeeded: --allow-errors keeps the built-in rule from failing the run"}, Failed},
		{"decided elsewhere", rest(100), Options{Decided: []result.Threshold{{Expr: "p99<+10%", Kind: result.KindBaseline}}},
			[]string{"p99<+10% FAIL"}, nil, Failed},
	} {
		t.Run(c.name, func(t *testing.T) {
			why := Judge(c.res, c.opts)
			var got []string
			for _, g := range c.res.Thresholds {
				s := "pass"
				if !g.Pass {
					s = "FAIL"
				}
				got = append(got, g.Expr+" "+s)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("gates %q, want %q", got, c.want)
			}
			if len(why) != len(c.warnings) || !slices.Equal(why, c.res.Warnings) {
				t.Errorf("warnings %q (result %q), want %d", why, c.res.Warnings, len(c.warnings))
			}
			for i := range min(len(why), len(c.warnings)) {
				if !strings.Contains(why[i], c.warnings[i]) {
					t.Errorf("warning %q, want it to say %q", why[i], c.warnings[i])
				}
			}
			if v := Of(c.res); v != c.verdict {
				t.Errorf("verdict %v, want %v", v, c.verdict)
			}
		})
	}
}

func TestOfAndExitCode(t *testing.T) {
	fail := []result.Threshold{{Expr: "ok>0"}}
	for _, c := range []struct {
		name string
		res  result.Result
		want Verdict
		code int
	}{
		{"passed", result.Result{}, Passed, 0},
		{"failed", result.Result{Thresholds: fail}, Failed, 3},
		{"shard defers", result.Result{Thresholds: fail, Shard: &result.ShardInfo{Index: 1, Count: 4}}, Deferred, 0},
		{"whole run as one shard", result.Result{Thresholds: fail, Shard: &result.ShardInfo{Index: 0, Count: 1}}, Failed, 3},
		{"interrupted", result.Result{Interrupted: true, Thresholds: fail}, Interrupted, 130},
		{"aborted shard", result.Result{AbortedBy: "error_rate<5%", Interrupted: true, Shard: &result.ShardInfo{Count: 2}}, Failed, 3},
		{"a shard's baseline gate", result.Result{Thresholds: []result.Threshold{{Expr: "p99<+1%", Kind: result.KindBaseline}}, Shard: &result.ShardInfo{Index: 1, Count: 4}}, Failed, 3},
	} {
		v := Of(&c.res)
		if v != c.want || ExitCode(v) != c.code {
			t.Errorf("%s: verdict %v exit %d, want %v exit %d", c.name, v, ExitCode(v), c.want, c.code)
		}
	}
}

func TestFromConfig(t *testing.T) {
	o, err := FromConfig(result.RunConfig{Thresholds: []string{"p99<1s"}, AbortOnFail: []string{"error_rate<5%"}, AllowErrors: true})
	if err != nil || len(o.Gates) != 1 || len(o.AbortGates) != 1 || !o.AllowErrors {
		t.Fatalf("%+v %v", o, err)
	}
	if _, err := FromConfig(result.RunConfig{AbortOnFail: []string{"p99<<"}}); err == nil || !strings.Contains(err.Error(), "abort_on_fail") {
		t.Errorf("a bad gate: %v", err)
	}
}
