package metrics

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// requestsTotal scrapes url and sums vesload_requests_total.
func requestsTotal(t *testing.T, client *http.Client, url string) float64 {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, m := range fams["vesload_requests_total"].GetMetric() {
		sum += m.GetCounter().GetValue()
	}
	return sum
}

func TestServeListener(t *testing.T) {
	t.Parallel()
	e := New()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stop := e.ServeListener(ln)
	client := &http.Client{Timeout: 5 * time.Second}
	url := "http://" + ln.Addr().String() + MetricsPath
	request(e, "ok", 202, time.Millisecond, time.Millisecond)
	first := requestsTotal(t, client, url)
	request(e, "ok", 202, time.Millisecond, time.Millisecond)
	request(e, "timeout", 0, time.Second, time.Second)
	if second := requestsTotal(t, client, url); first != 1 || second != 3 {
		t.Errorf("request counter %v then %v, want 1 then 3", first, second)
	}
	if resp, err := client.Get("http://" + ln.Addr().String() + "/other"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /other = %v, %v; want 404", resp, err)
	} else {
		resp.Body.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := stop(ctx); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if err := stop(ctx); err != nil {
		t.Errorf("second stop: %v", err)
	}
	if _, err := client.Get(url); err == nil {
		t.Error("still serving after stop")
	}
}

func TestServe(t *testing.T) {
	t.Parallel()
	e := New()
	stop, err := e.Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(context.Background()); err != nil {
		t.Errorf("stop: %v", err)
	}
	if _, err := e.Serve("127.0.0.1:bad"); err == nil || !strings.Contains(err.Error(), "metrics listen 127.0.0.1:bad") {
		t.Errorf("Serve on a bad address: %v", err)
	}
}
