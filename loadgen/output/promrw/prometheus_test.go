package promrw

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/promtest"
	"github.com/vesload/vesload/report/result"
)

// TestRealPrometheus pushes seconds to Debian's Prometheus started with
// its remote-write receiver (2.42: the 1.0 protocol) and reads them back
// with PromQL: the counters' last values are the run's requests and
// successes, and the server holds every sample the result says was
// written.
func TestRealPrometheus(t *testing.T) {
	t.Parallel()
	prom := promtest.StartReceiver(t)
	// The live samples are stamped half a minute back, so that none lies
	// after the instant the queries are evaluated at.
	back := func() time.Time { return time.Now().Add(-30 * time.Second) }
	o := newObserver(t, Config{URL: prom.WriteURL(), Job: "promrw-test", Shard: "1", RunID: "r1", Now: back})
	total, oks := feed(o, time.Now().Add(-time.Minute).Truncate(time.Second), 12)
	var res result.Result
	o.Finish(&res, 10*time.Second)
	if len(res.Written) != 1 || res.Written[0].Batches != 13 || res.Written[0].Failed+res.Written[0].Dropped != 0 {
		t.Fatalf("written %+v, want 13 batches and none lost", res.Written)
	}
	sel := `{job="promrw-test",shard="1",run_id="r1"}`
	// every sample of every series: count_over_time drops the names, so
	// each name is counted apart.
	var samples []string
	for _, name := range []string{"vesload_run_requests_total", "vesload_run_bytes_sent_total", "vesload_run_bytes_received_total",
		"vesload_run_latency_seconds", "vesload_run_in_flight"} {
		samples = append(samples, "sum(count_over_time("+name+sel+"[10m]))")
	}
	for _, tt := range []struct {
		expr string
		want int64
	}{
		{`sum(vesload_run_requests_total` + sel + `)`, total},
		{`sum(vesload_run_requests_total{job="promrw-test",outcome="ok"})`, oks},
		{`sum(vesload_run_requests_total{job="promrw-test",outcome="http_503"})`, total - oks},
		{strings.Join(samples, " + "), res.Written[0].Samples},
		{`count(vesload_run_latency_seconds` + sel + `)`, 5},
	} {
		got, err := queryInt(prom, tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s = %d, want %d", tt.expr, got, tt.want)
		}
	}
}

// queryInt is the one value of an instant query, as an integer.
func queryInt(prom *promtest.Server, expr string) (int64, error) {
	s, err := prom.Query(expr)
	if err != nil {
		return 0, err
	}
	if len(s) != 1 {
		return 0, fmt.Errorf("%s: %d samples, want 1: %v", expr, len(s), s)
	}
	str, _ := s[0].Value[1].(string)
	v, err := strconv.ParseFloat(str, 64)
	return int64(v), err
}
