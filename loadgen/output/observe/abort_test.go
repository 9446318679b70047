package observe

import (
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/threshold"
)

// second is a second of the timeline with ok successes and bad 503s, all
// answered in lat.
func second(ok, bad int, lat time.Duration) *result.Tally {
	t := result.NewTally()
	for range ok {
		t.Add(result.Outcome{Class: result.OutcomeOK, Latency: lat, Service: lat})
	}
	for range bad {
		t.Add(result.Outcome{Class: "http_503", Latency: lat, Service: lat})
	}
	return &t
}

func gates(t *testing.T, exprs ...string) []threshold.Threshold {
	t.Helper()
	var gs []threshold.Threshold
	for _, e := range exprs {
		g, err := threshold.Parse(e)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	return gs
}

func TestAbortGuard(t *testing.T) {
	t.Parallel()
	good, bad := second(100, 0, 5*time.Millisecond), second(50, 50, 5*time.Millisecond)
	slow := second(100, 0, 900*time.Millisecond)
	tests := []struct {
		name    string
		gates   []string
		seconds []*result.Tally
		stopAt  int // the second (1-based) after which the guard stops; 0: never
		reason  string
	}{
		{"all good", []string{"error_rate<5%"}, repeat(good, 20), 0, ""},
		{"bad but shorter than a window", []string{"error_rate<5%"}, repeat(bad, 9), 0, ""},
		{"bad from the start", []string{"error_rate<5%"}, repeat(bad, 15), 10, "error_rate<5% (50.00% over the last 10 s)"},
		// 10 good seconds, then bad ones: the window's error rate passes 5 %
		// with the first bad second (50 of 1000 = 5 %, not below 5 %).
		{"goes bad", []string{"error_rate<5%"}, append(repeat(good, 10), repeat(bad, 5)...), 11, "error_rate<5%"},
		{"one bad second diluted", []string{"error_rate<10%"}, append(append(repeat(good, 10), bad), repeat(good, 10)...), 0, ""},
		{"latency of the window", []string{"p99<500ms"}, append(repeat(good, 10), repeat(slow, 1)...), 11, "p99<500ms"},
		{"second gate", []string{"error_rate<60%", "p50<100ms"}, repeat(slow, 12), 10, "p50<100ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stops := 0
			var notes []string
			g := NewAbortGuard(gates(t, tc.gates...), AbortWindow, func() { stops++ }, func(s string) { notes = append(notes, s) })
			stoppedAt := 0
			for i, s := range tc.seconds {
				g.Timeline(result.Second{T: int64(i)}, s)
				if stops > 0 && stoppedAt == 0 {
					stoppedAt = i + 1
				}
			}
			why, gate, failed := g.Failed()
			if stoppedAt != tc.stopAt || failed != (tc.stopAt > 0) {
				t.Fatalf("stopped after second %d (failed %v, %q), want %d", stoppedAt, failed, why, tc.stopAt)
			}
			if stops > 1 {
				t.Errorf("stop called %d times, want once", stops)
			}
			if !failed {
				return
			}
			if !strings.HasPrefix(why, tc.reason) || len(notes) != 1 || !strings.Contains(notes[0], why) {
				t.Errorf("reason %q, notes %q; want it to start with %q", why, notes, tc.reason)
			}
			if gate.Pass || !strings.HasPrefix(gate.Expr, "abort-on-fail: ") {
				t.Errorf("gate %+v, want a failed abort-on-fail gate", gate)
			}
		})
	}
}

func repeat(t *result.Tally, n int) []*result.Tally {
	out := make([]*result.Tally, n)
	for i := range out {
		out[i] = t
	}
	return out
}

func TestWindowResult(t *testing.T) {
	t.Parallel()
	var w result.Tally
	w.Merge(second(90, 10, 10*time.Millisecond))
	w.Merge(second(100, 0, 30*time.Millisecond))
	w.Add(result.Outcome{Class: result.ClassPoolExhausted})
	r := WindowResult(&w, 2)
	want := result.Requests{Scheduled: 201, Sent: 200, OK: 190, Errors: 11}
	if r.Requests != want || r.Errors["http_503"] != 10 || r.Errors[result.ClassPoolExhausted] != 1 {
		t.Errorf("requests %+v errors %v, want %+v", r.Requests, r.Errors, want)
	}
	if r.RPS.Achieved != 100 || r.DurationS != 2 {
		t.Errorf("rate %v over %v s, want 100 over 2", r.RPS.Achieved, r.DurationS)
	}
	if r.Latency.P50 < 9 || r.Latency.P50 > 11 || r.Latency.P99 < 29 || r.Latency.Max > 31 {
		t.Errorf("latency %+v, want p50 ≈ 10 ms and p99 ≈ 30 ms from the merged window", r.Latency)
	}
	if pct, ok := r.ErrorRatePct(); !ok || pct < 5.4 || pct > 5.5 {
		t.Errorf("error rate %v %%, want 11 of 201", pct)
	}
}

func TestAbortReasonRounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    result.Threshold
		want string
	}{
		{result.Threshold{Expr: "error_rate<1%", Value: 49.9001996007984, Unit: "%"}, "error_rate<1% (49.90% over the last 10 s)"},
		{result.Threshold{Expr: "p99<500ms", Value: 812.3456789, Unit: "ms"}, "p99<500ms (812.35 ms over the last 10 s)"},
		{result.Threshold{Expr: "rps>=100", Value: 99.33333333, Unit: "/s"}, "rps>=100 (99.33/s over the last 10 s)"},
	}
	for _, tc := range tests {
		if got := abortReason(tc.v, 10); got != tc.want {
			t.Errorf("abortReason(%v) = %q, want %q", tc.v.Value, got, tc.want)
		}
	}
}

func TestParseAbortGates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		exprs []string
		err   string
	}{
		{[]string{"error_rate<5%", "p99<500ms", "rps>10"}, ""},
		{[]string{"p99<"}, "--abort-on-fail: "},
		{[]string{"error_rate<5%", "target_cpu_max<80"}, `--abort-on-fail "target_cpu_max<80": only request`},
		{[]string{"generator_rss_max<1GB"}, "only request, error, rate and latency"},
		{[]string{"dispatch_lag_p99<1s"}, "only request"},
		{[]string{"error_rate<1"}, "give a unit: 1% for 1 in 100 requests, or 100% if 1 was meant"},
	}
	for _, tt := range tests {
		gs, err := ParseAbortGates(tt.exprs)
		switch {
		case tt.err == "" && (err != nil || len(gs) != len(tt.exprs)):
			t.Errorf("ParseAbortGates(%q) = %d gates, %v", tt.exprs, len(gs), err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseAbortGates(%q): %v, want %q", tt.exprs, err, tt.err)
		}
	}
}

// A guard that stopped the run completes the result; a run it did not
// stop keeps its own.
func TestAbortGuardComplete(t *testing.T) {
	t.Parallel()
	for _, signalled := range []bool{false, true} {
		g := NewAbortGuard(gates(t, "error_rate<5%"), 1, func() {}, func(string) {})
		g.Timeline(result.Second{}, second(1, 9, time.Millisecond))
		res := &result.Result{Interrupted: true}
		gs := g.Complete(res, signalled)
		if res.AbortedBy != "error_rate<5%" || len(gs) != 1 || gs[0].Pass || gs[0].Kind != result.KindAbort ||
			len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "stopped early by --abort-on-fail: error_rate<5%") ||
			res.Interrupted != signalled {
			t.Errorf("signalled %v: %+v", signalled, res)
		}
	}
	calm := NewAbortGuard(gates(t, "error_rate<5%"), 1, func() {}, func(string) {})
	calm.Timeline(result.Second{}, second(10, 0, time.Millisecond))
	res := &result.Result{Interrupted: true}
	gs := calm.Complete(res, false)
	var none *AbortGuard
	gs = append(gs, none.Complete(res, false)...)
	if len(gs) != 0 || !res.Interrupted || res.AbortedBy != "" || len(res.Thresholds)+len(res.Warnings) != 0 {
		t.Errorf("a guard that did not stop the run changed the result: %+v", res)
	}
}
