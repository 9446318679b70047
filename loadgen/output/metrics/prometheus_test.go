package metrics

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/proctest"
	"github.com/vesload/vesload/internal/promtest"
	"github.com/vesload/vesload/internal/waitfor"
)

// TestNativeHistogramsOnRealPrometheus has a real Prometheus, scraping
// native histograms, read the exporter: it negotiates the protobuf
// exposition, and PromQL's native histogram functions see the latency
// observations with their count and a plausible median.
func TestNativeHistogramsOnRealPrometheus(t *testing.T) {
	t.Parallel()
	addr := fmt.Sprintf("127.0.0.1:%d", proctest.FreePort(t))
	prom := promtest.StartNative(t, addr)
	e := New()
	for range 100 {
		request(e, "ok", 202, 3*time.Millisecond, 2*time.Millisecond)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	stop := e.ServeListener(ln)
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = stop(ctx)
	}()
	queries := map[string]func(float64) bool{
		`histogram_count(vesload_request_latency_seconds)`:         func(v float64) bool { return v == 100 },
		`histogram_quantile(0.5, vesload_request_latency_seconds)`: func(v float64) bool { return v > 0.0027 && v <= 0.0031 },
		`histogram_sum(vesload_request_service_seconds)`:           func(v float64) bool { return v > 0.199 && v < 0.201 },
	}
	waitfor.True(15*time.Second, 500*time.Millisecond, func() bool {
		for q, ok := range queries {
			samples, err := prom.Query(q)
			if err != nil {
				t.Fatal(err)
			}
			if len(samples) != 1 {
				continue // not scraped yet
			}
			s, _ := samples[0].Value[1].(string)
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || !ok(v) {
				t.Errorf("%s = %q", q, s)
			}
			delete(queries, q)
		}
		return len(queries) == 0
	})
	for q := range queries {
		t.Errorf("no data for %s: Prometheus stored no native histogram", q)
	}
}
