package threshold

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr      string
		metric    string
		op        Op
		value     float64
		canonical string
	}{
		{"p99<500ms", "p99", LT, 500, "p99<500ms"},
		{"  p99 <= 0.5 s ", "p99", LE, 500, "p99<=500ms"},
		{"p(95)<200ms", "p95", LT, 200, "p95<200ms"},
		{"P(95) > 1m", "p95", GT, 60000, "p95>60000ms"},
		{"p99.9<1s", "p999", LT, 1000, "p999<1000ms"},
		{"p(99.9)>=250us", "p999", GE, 0.25, "p999>=0.25ms"},
		{"p999!=3µs", "p999", NE, 0.003, "p999!=0.003ms"},
		{"p50==7μs", "p50", EQ, 0.007, "p50==0.007ms"},
		{"avg<10ms", "avg", LT, 10, "avg<10ms"},
		{"min>.5ms", "min", GT, 0.5, "min>0.5ms"},
		{"max<2s", "max", LT, 2000, "max<2000ms"},
		{"p90<1ms", "p90", LT, 1, "p90<1ms"},
		{"service_p99<100ms", "service_p99", LT, 100, "service_p99<100ms"},
		{"service_p(99.9)<100ms", "service_p999", LT, 100, "service_p999<100ms"},
		{"service_avg<3ms", "service_avg", LT, 3, "service_avg<3ms"},
		{"service_max<3s", "service_max", LT, 3000, "service_max<3000ms"},
		{"dispatch_lag_p99<1ms", "dispatch_lag_p99", LT, 1, "dispatch_lag_p99<1ms"},
		{"dispatch_lag_max<20ms", "dispatch_lag_max", LT, 20, "dispatch_lag_max<20ms"},
		{"error_rate<0.1%", "error_rate", LT, 0.1, "error_rate<0.1%"},
		{"error_rate <= 100 %", "error_rate", LE, 100, "error_rate<=100%"},
		{"error_rate==0", "error_rate", EQ, 0, "error_rate==0%"},
		{"errors==0", "errors", EQ, 0, "errors==0"},
		{"errors.pool_exhausted<10", "errors.pool_exhausted", LT, 10, "errors.pool_exhausted<10"},
		{"errors.http_503 == 0", "errors.http_503", EQ, 0, "errors.http_503==0"},
		{"ERRORS.HTTP_5XX<1", "errors.http_5xx", LT, 1, "errors.http_5xx<1"},
		{"errors.timeout<1", "errors.timeout", LT, 1, "errors.timeout<1"},
		{"errors.response_too_large==0", "errors.response_too_large", EQ, 0, "errors.response_too_large==0"},
		{"errors.bad_response==0", "errors.bad_response", EQ, 0, "errors.bad_response==0"},
		{"errors.aborted==0", "errors.aborted", EQ, 0, "errors.aborted==0"},
		{"rps>=99.5", "rps", GE, 99.5, "rps>=99.5"},
		{"rps>=99/s", "rps", GE, 99, "rps>=99"},
		{"target_cpu_max<80", "target_cpu_max", LT, 80, "target_cpu_max<80%"},
		{"target_cpu_avg < 50%", "target_cpu_avg", LT, 50, "target_cpu_avg<50%"},
		{"target_rss_max<512MiB", "target_rss_max", LT, 512 << 20, "target_rss_max<536870912B"},
		{"target_rss_max<1.5GB", "target_rss_max", LT, 1.5e9, "target_rss_max<1500000000B"},
		{"target_rss_max<2KB", "target_rss_max", LT, 2000, "target_rss_max<2000B"},
		{"target_rss_max<2KiB", "target_rss_max", LT, 2048, "target_rss_max<2048B"},
		{"target_rss_max<1GiB", "target_rss_max", LT, 1 << 30, "target_rss_max<1073741824B"},
		{"target_rss_max<100", "target_rss_max", LT, 100, "target_rss_max<100B"},
		{"generator_cpu_max<90%", "generator_cpu_max", LT, 90, "generator_cpu_max<90%"},
		{"generator_rss_max<1MB", "generator_rss_max", LT, 1e6, "generator_rss_max<1000000B"},
		{"not_sent==0", "not_sent", EQ, 0, "not_sent==0"},
		{"sent>=1000", "sent", GE, 1000, "sent>=1000"},
		{"scheduled>0", "scheduled", GT, 0, "scheduled>0"},
		{"ok>0", "ok", GT, 0, "ok>0"},
		{"\tp99\t<\t5ms\n", "p99", LT, 5, "p99<5ms"},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tc.expr)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got.Metric != tc.metric || got.Op != tc.op || got.Value != tc.value {
				t.Errorf("Parse = %s %s %v, want %s %s %v", got.Metric, got.Op, got.Value, tc.metric, tc.op, tc.value)
			}
			if got.Expr != strings.TrimSpace(tc.expr) {
				t.Errorf("Expr = %q, want the expression as written", got.Expr)
			}
			if got.String() != tc.canonical {
				t.Errorf("String() = %q, want %q", got.String(), tc.canonical)
			}
		})
	}
}

func TestFractionAndPercentAgree(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{
		{"error_rate<0.1%", "error_rate < 0.1 %"},
		{"error_rate<5%", "ERROR_RATE<5.0%"},
		{"error_rate==0", "error_rate==0%"},
	} {
		a, errA := Parse(pair[0])
		b, errB := Parse(pair[1])
		if errA != nil || errB != nil {
			t.Fatalf("parse %v: %v, %v", pair, errA, errB)
		}
		if a.Value != b.Value {
			t.Errorf("%s gives %v but %s gives %v", pair[0], a.Value, pair[1], b.Value)
		}
	}
}

func TestParseInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr   string
		column int
		msg    string // the message after "column N: "
	}{
		{"p99<5xs", 6, `unknown unit "xs" (want us, ms, s, m)`},
		{"", 1, "empty threshold (want METRIC OP VALUE, e.g. p99<500ms)"},
		{"   ", 4, "empty threshold (want METRIC OP VALUE, e.g. p99<500ms)"},
		{"<5ms", 1, `expected a metric name such as p99 or error_rate, found "<5ms"`},
		{"p99<5", 6, "missing unit: p99 is a latency (want us, ms, s, m)"},
		{"p99 < 5 ", 9, "missing unit: p99 is a latency (want us, ms, s, m)"},
		{"service_p99<5", 14, "missing unit: service_p99 is a latency (want us, ms, s, m)"},
		{"p98<5ms", 1, `unknown statistic "p98" (want avg, min, max, p50, p90, p95, p99, p999 or p(99.9))`},
		{"p(99.99)<5ms", 1, `unknown statistic "p(99.99)" (want avg, min, max, p50, p90, p95, p99, p999 or p(99.9))`},
		{"service_p75<5ms", 9, `unknown statistic "p75" (want avg, min, max, p50, p90, p95, p99, p999 or p(99.9))`},
		{"dispatch_lag_p95<1ms", 14, `unknown statistic "p95" (want p50, p99 or max)`},
		{"latency<5ms", 1, `unknown metric "latency" (want ` + metricList + ")"},
		{"erorr_rate<1%", 1, `unknown metric "erorr_rate": did you mean error_rate?`},
		{"target_cpu_mx<80", 1, `unknown metric "target_cpu_mx": did you mean target_cpu_max?`},
		{"rsp>10", 1, `unknown metric "rsp": did you mean rps?`},
		{"errors.http_5o3<1", 8, `unknown error class "http_5o3" (want ` + classList + ")"},
		{"errors.http_600<1", 8, `unknown error class "http_600" (want ` + classList + ")"},
		{"errors.<1", 8, `unknown error class "" (want ` + classList + ")"},
		{"delivery.lots==0", 10, `unknown delivery count "lots" (want ` + deliveryList + ")"},
		{"e2e_p98<1s", 5, `unknown statistic "p98" (want avg, min, max, p50, p90, p95, p99, p999 or p(99.9))`},
		{"e2e_p99<2", 10, "missing unit: e2e_p99 is a latency (want us, ms, s, m)"},
		{"p99 5ms", 5, `expected an operator (<, <=, >, >=, ==, !=) after "p99", found "5ms"`},
		{"p99", 4, `expected an operator (<, <=, >, >=, ==, !=) after "p99", found end of expression`},
		{"p99=5ms", 4, `unknown operator "=" (want <, <=, >, >=, ==, !=)`},
		{"p99 =< 5ms", 5, `unknown operator "=<" (want <, <=, >, >=, ==, !=)`},
		{"p99<<5ms", 4, `unknown operator "<<" (want <, <=, >, >=, ==, !=)`},
		{"p99<", 5, `expected a non-negative number after "<", found end of expression`},
		{"p99<-5ms", 5, `expected a non-negative number after "<", found "-5ms"`},
		{"p99<ms", 5, `expected a non-negative number after "<", found "ms"`},
		{"p99<1.2.3ms", 5, `invalid number "1.2.3" (want digits with at most one decimal point, e.g. 0.5)`},
		{"p99<5.ms", 5, `invalid number "5." (want digits with at most one decimal point, e.g. 0.5)`},
		{"p99<.ms", 5, `invalid number "." (want digits with at most one decimal point, e.g. 0.5)`},
		{"p99<1e3ms", 6, `unknown unit "e3ms" (want us, ms, s, m)`},
		{"p99<5ms and more", 9, `unexpected "and" after the value`},
		{"p99<5 ms x", 10, `unexpected "x" after the value`},
		{"µs<5ms", 1, `expected a metric name such as p99 or error_rate, found "µs<5ms"`},
		{"p99<5µx", 6, `unknown unit "µx" (want us, ms, s, m)`},
		{"error_rate<5", 12, "give a unit: 5% for 5 in 100 requests (as a fraction, 5 would be 500%, above any rate)"},
		{"error_rate<1", 12, "give a unit: 1% for 1 in 100 requests, or 100% if 1 was meant as a fraction of the requests (error_rate is a percentage)"},
		{"error_rate <= 0.01", 15, "give a unit: 0.01% for 0.01 in 100 requests, or 1% if 0.01 was meant as a fraction of the requests (error_rate is a percentage)"},
		{"error_rate<.5", 12, "give a unit: .5% for .5 in 100 requests, or 50% if .5 was meant as a fraction of the requests (error_rate is a percentage)"},
		{"error_rate<101%", 12, "error_rate is a percentage and 101% is above 100%"},
		{"error_rate<1ms", 13, `unknown unit "ms" (want %: error_rate is a percentage)`},
		{"error_rate<0.5pp", 15, `unknown unit "pp" (want %: error_rate is a percentage)`},
		{"target_cpu_max<80ms", 18, `unknown unit "ms" (want % or none: target_cpu_max is a percentage)`},
		{"target_rss_max<1kb", 17, `unknown unit "kb" (want B, KB, MB, GB, KiB, MiB, GiB)`},
		{"errors<5%", 9, `unexpected unit "%" (errors is a count and takes no unit)`},
		{"rps>5ms", 6, `unknown unit "ms" (want /s or none: rps is requests per second)`},
		{"p99<" + strings.Repeat("9", 400) + "ms", 5, "number " + strings.Repeat("9", 60) + "… is out of range"},
		{"p99<" + strings.Repeat("9", 306) + "m", 5, "number " + strings.Repeat("9", 60) + "… is out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tc.expr)
			if err == nil {
				t.Fatalf("Parse succeeded with %+v, want an error", got)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if pe.Column != tc.column || pe.Msg != tc.msg {
				t.Errorf("error at column %d: %s\nwant column %d: %s", pe.Column, pe.Msg, tc.column, tc.msg)
			}
		})
	}
}

func TestParseErrorText(t *testing.T) {
	t.Parallel()
	_, err := Parse("p99<5xs")
	want := `threshold "p99<5xs": column 6: unknown unit "xs" (want us, ms, s, m)`
	if err == nil || err.Error() != want {
		t.Errorf("Parse error = %v, want %s", err, want)
	}
}

func TestParseAll(t *testing.T) {
	t.Parallel()
	ts, err := ParseAll([]string{"p99<5ms", "errors==0"})
	if err != nil || len(ts) != 2 || ts[1].Metric != "errors" {
		t.Fatalf("ParseAll = %+v, %v", ts, err)
	}
	_, err = ParseAll([]string{"p99<5ms", "p99<5", "nope"})
	if err == nil || !strings.Contains(err.Error(), `threshold "p99<5"`) {
		t.Errorf("ParseAll error = %v, want the second expression named", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"p99<500ms", "p(95) <= 0.5s", "p99.9>=250us", "error_rate<0.1%", "error_rate<1%",
		"errors.http_5xx==0", "target_rss_max<512MiB", "rps>=99/s", "p99<5xs", "", "µs", "p99<5µs",
		"errors.pool_exhausted < 10", "service_p(99.9)!=1m", "dispatch_lag_max<.5ms",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		th, err := Parse(expr)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if n := utf8.RuneCountInString(expr); pe.Column < 1 || pe.Column > n+1 {
				t.Fatalf("column %d outside 1..%d for %q", pe.Column, n+1, expr)
			}
			return
		}
		canon := th.String()
		again, err := Parse(canon)
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", canon, expr, err)
		}
		if again.Metric != th.Metric || again.Op != th.Op || again.Value != th.Value {
			t.Fatalf("%q -> %q -> %+v, want %+v", expr, canon, again, th)
		}
		if again.String() != canon {
			t.Fatalf("String not stable: %q then %q", canon, again.String())
		}
	})
}

// TestLongExpressionsClipped: an error line echoes at most a little of
// what was given: a 100 KB threshold gives a line of a few hundred bytes,
// still naming the column of the mistake.
func TestLongExpressionsClipped(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100_000)
	tests := []struct{ expr, want string }{
		{long + "<5ms", `threshold "` + strings.Repeat("x", 60) + `…" (100004 characters): column 1: unknown metric "` + strings.Repeat("x", 60) + `…"`},
		{"p99<5ms " + long, `threshold "p99<5ms ` + strings.Repeat("x", 52) + `…" (100008 characters): column 9: unexpected "` + strings.Repeat("x", 60) + `…" after the value`},
		{"p99<5" + long, `threshold "p99<5` + strings.Repeat("x", 55) + `…" (100005 characters): column 6: unknown unit "` + strings.Repeat("x", 60) + `…"`},
		{"p99<" + strings.Repeat("1", 100_000) + "ms", `threshold "p99<` + strings.Repeat("1", 56) + `…" (100006 characters): column 5: number ` + strings.Repeat("1", 60) + `… is out of range`},
		{"error_rate<" + strings.Repeat("1", 100), `threshold "error_rate<` + strings.Repeat("1", 49) + `…" (111 characters): column 12: give a unit: ` + strings.Repeat("1", 60) + `…% (a rate without a unit reads as a percentage or as a fraction)`},
		{"p99" + strings.Repeat("<", 100_000) + "5ms", `threshold "p99` + strings.Repeat("<", 57) + `…" (100006 characters): column 4: unknown operator "` + strings.Repeat("<", 60) + `…" (want <, <=, >, >=, ==, !=)`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.expr)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%.40q…):\n got  %.300v\n want %s", tt.expr, err, tt.want)
		}
		if err != nil && len(err.Error()) > 400 {
			t.Errorf("Parse(%.40q…): a %d-byte error line", tt.expr, len(err.Error()))
		}
	}
}

// TestParseRecordedReadsTheOldFraction: a result file written before a
// rate needed its unit recorded error_rate<0.05 for 5 %; read back (a
// merge judges it again) it means what it meant, while the command line
// refuses it.
func TestParseRecordedReadsTheOldFraction(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		want float64 // percent
	}{
		{"error_rate<0.05", 5},
		{"error_rate<1", 100},
		{"error_rate<0", 0},
		{"error_rate<0.5%", 0.5},
		{"p99<500ms", 500},
	}
	for _, tt := range tests {
		g, err := ParseRecorded(tt.expr)
		if err != nil || g.Value != tt.want {
			t.Errorf("ParseRecorded(%q) = %v, %v; want %v", tt.expr, g.Value, err, tt.want)
		}
	}
	if _, err := Parse("error_rate<0.05"); err == nil {
		t.Error("Parse took a rate without its unit")
	}
	if _, err := ParseRecorded("error_rate<2"); err == nil {
		t.Error("ParseRecorded took a fraction above 1")
	}
}
