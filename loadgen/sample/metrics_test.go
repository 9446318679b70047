package sample

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// micrometer is what a Spring Boot actuator serves at /actuator/prometheus
// (trailing commas in label sets included, as older Micrometer writes
// them).
const micrometer = `# HELP process_cpu_usage The "recent cpu usage" for the Java Virtual Machine process
# TYPE process_cpu_usage gauge
process_cpu_usage{application="ves",} 0.125
# HELP system_cpu_count The number of processors available to the Java virtual machine
# TYPE system_cpu_count gauge
system_cpu_count{application="ves",} 4.0
# HELP system_cpu_usage The "recent cpu usage" of the system the application is running in
# TYPE system_cpu_usage gauge
system_cpu_usage{application="ves",} 0.25
# HELP jvm_memory_used_bytes The amount of used memory
# TYPE jvm_memory_used_bytes gauge
jvm_memory_used_bytes{application="ves",area="heap",id="G1 Eden Space",} 1.048576E7
jvm_memory_used_bytes{application="ves",area="heap",id="G1 Old Gen",} 2.097152E7
jvm_memory_used_bytes{application="ves",area="nonheap",id="Metaspace",} 5242880.0
# HELP jvm_threads_live_threads The current number of live threads
# TYPE jvm_threads_live_threads gauge
jvm_threads_live_threads{application="ves",} 42.0
# HELP http_server_requests_seconds
# TYPE http_server_requests_seconds histogram
http_server_requests_seconds_bucket{uri="/eventListener/v7",le="0.1",} 10.0
http_server_requests_seconds_bucket{uri="/eventListener/v7",le="+Inf",} 12.0
http_server_requests_seconds_count{uri="/eventListener/v7",} 12.0
http_server_requests_seconds_sum{uri="/eventListener/v7",} 0.9
`

// serve starts a 127.0.0.1 server answering every request with h.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// text answers with body in the Prometheus text format.
func text(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		fmt.Fprint(w, body)
	}
}

func TestMetricsMicrometer(t *testing.T) {
	t.Parallel()
	const jvm = 1.048576e7 + 2.097152e7 + 5242880
	tests := []struct {
		name     string
		body     string
		cpu      float64
		rss      int64
		threads  int32
		extra    map[string]float64
		series   []string
		noSeries []string
	}{
		{
			name:    "actuator",
			body:    micrometer,
			cpu:     0.125 * 4 * 100,
			rss:     jvm, // no resident-memory series: the JVM's used memory stands in
			threads: 42,
			extra:   map[string]float64{ExtraSystemCPUPct: 25, ExtraJVMMemoryUsed: jvm},
			series: []string{"jvm_memory_used_bytes", "jvm_threads_live_threads", "process_cpu_usage",
				"system_cpu_count", "system_cpu_usage"},
		},
		{
			name:     "no cpu count",
			body:     strings.ReplaceAll(micrometer, "system_cpu_count{", "other_count{"),
			cpu:      12.5, // 100 = the whole machine then, as documented
			rss:      jvm,
			threads:  42,
			extra:    map[string]float64{ExtraSystemCPUPct: 25, ExtraJVMMemoryUsed: jvm},
			noSeries: []string{"system_cpu_count"},
		},
		{
			name:    "resident memory wins",
			body:    micrometer + "process_resident_memory_bytes 123456789\nprocess_threads 7\n",
			cpu:     50,
			rss:     123456789,
			threads: 7,
			extra:   map[string]float64{ExtraSystemCPUPct: 25, ExtraJVMMemoryUsed: jvm},
			series:  []string{"process_resident_memory_bytes", "process_threads"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, text(tt.body))
			s, err := NewMetrics(srv.URL+"/actuator/prometheus", HTTPOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Sample(context.Background(), time.Unix(1000, 0))
			if err != nil {
				t.Fatal(err)
			}
			if r.NoCPU || !near(r.CPUPct, tt.cpu) {
				t.Errorf("CPUPct = %v (NoCPU %v), want %v", r.CPUPct, r.NoCPU, tt.cpu)
			}
			if r.RSSBytes != tt.rss || r.Threads != tt.threads {
				t.Errorf("RSS %d, Threads %d; want %d, %d", r.RSSBytes, r.Threads, tt.rss, tt.threads)
			}
			for name, want := range tt.extra {
				if got, ok := r.Extra[name]; !ok || !near(got, want) {
					t.Errorf("Extra[%s] = %v, %v; want %v", name, got, ok, want)
				}
			}
			got := s.Series()
			for _, name := range tt.series {
				if !slices.Contains(got, name) {
					t.Errorf("Series %v lacks %s", got, name)
				}
			}
			for _, name := range tt.noSeries {
				if slices.Contains(got, name) {
					t.Errorf("Series %v names unused %s", got, name)
				}
			}
			if want := "metrics:" + srv.URL + "/actuator/prometheus"; s.Source() != want {
				t.Errorf("Source = %q, want %q", s.Source(), want)
			}
		})
	}
}

// near compares floats to a relative 1e-9.
func near(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= 1e-9*max(1, b, -b)
}

func TestMetricsCounterRateUsesNow(t *testing.T) {
	t.Parallel()
	var scrapes atomic.Int64
	srv := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		n := scrapes.Add(1)
		v := 10 + 0.5*float64(n)
		if n >= 4 {
			v = 0.5 * float64(n-4) // the target restarted
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		fmt.Fprintf(w, "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %g\n"+
			"# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 5e+07\n", v)
	})
	s, err := NewMetrics(srv.URL+"/metrics", HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Unix(1_700_000_000, 0)
	steps := []struct {
		at    time.Duration // fake time since start
		noCPU bool
		cpu   float64
	}{
		{0, true, 0},                 // first scrape primes
		{time.Second, false, 50},     // +0.5 s of CPU in 1 s
		{3 * time.Second, false, 25}, // +0.5 s in 2 s
		{4 * time.Second, true, 0},   // counter reset: primes again
		{5 * time.Second, false, 50},
	}
	for i, st := range steps {
		r, err := s.Sample(context.Background(), start.Add(st.at))
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if r.NoCPU != st.noCPU || !near(r.CPUPct, st.cpu) {
			t.Errorf("step %d: CPUPct %v NoCPU %v; want %v %v", i, r.CPUPct, r.NoCPU, st.cpu, st.noCPU)
		}
		if r.RSSBytes != 50_000_000 {
			t.Errorf("step %d: RSS = %d", i, r.RSSBytes)
		}
	}
	if got := s.Series(); !slices.Equal(got, []string{"process_cpu_seconds_total", "process_resident_memory_bytes"}) {
		t.Errorf("Series = %v", got)
	}
}

func TestMetricsClientGolangEndpoint(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
	srv := serve(t, promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true}).ServeHTTP)
	s, err := NewMetrics(srv.URL+"/metrics", HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := s.Sample(context.Background(), start); err != nil {
		t.Fatal(err)
	}
	r, err := s.Sample(context.Background(), start.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if r.NoCPU || r.CPUPct < 0 || r.RSSBytes < 1<<20 || r.VSZBytes < r.RSSBytes || r.Threads < 1 {
		t.Errorf("reading %+v: want a CPU figure, RSS ≥ 1 MiB, VSZ ≥ RSS, threads", r)
	}
	want := []string{"go_threads", "process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes"}
	if got := s.Series(); !slices.Equal(got, want) {
		t.Errorf("Series = %v, want %v", got, want)
	}
}

func TestMetricsOpenMetrics(t *testing.T) {
	t.Parallel()
	const om = "application/openmetrics-text; version=1.0.0; charset=utf-8"
	tests := []struct {
		name string
		body string // %d is the scrape number
		want string // error text, or empty for success
	}{
		{
			name: "common subset",
			body: "# TYPE process_cpu_seconds counter\n# UNIT process_cpu_seconds seconds\n" +
				"# HELP process_cpu_seconds Total user and system CPU time.\n" +
				"process_cpu_seconds_total %d.0\nprocess_cpu_seconds_created 1.7e9\n" +
				"# TYPE process_resident_memory_bytes gauge\n# UNIT process_resident_memory_bytes bytes\n" +
				"process_resident_memory_bytes 4096\n# EOF\n",
		},
		{
			name: "exemplar",
			body: "# TYPE process_cpu_seconds counter\nprocess_cpu_seconds_total %d.0 # {trace_id=\"abc\"} 1.0\n" +
				"# TYPE process_resident_memory_bytes gauge\n" +
				"process_resident_memory_bytes 4096\n# EOF\n",
		},
		{
			name: "content after EOF",
			body: "process_cpu_seconds_total %d.0\n# EOF\nprocess_resident_memory_bytes 4096\n",
			want: "parse OpenMetrics exposition",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var scrapes atomic.Int64
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Accept") != Accept {
					t.Errorf("Accept = %q, want %q", r.Header.Get("Accept"), Accept)
				}
				w.Header().Set("Content-Type", om)
				fmt.Fprintf(w, tt.body, scrapes.Add(1))
			})
			s, err := NewMetrics(srv.URL+"/metrics", HTTPOptions{})
			if err != nil {
				t.Fatal(err)
			}
			now := time.Unix(1000, 0)
			_, err = s.Sample(context.Background(), now)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Sample error = %v, want one containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Sample(context.Background(), now.Add(2*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if r.NoCPU || !near(r.CPUPct, 50) || r.RSSBytes != 4096 {
				t.Errorf("CPUPct %v NoCPU %v RSS %d; want 50 false 4096", r.CPUPct, r.NoCPU, r.RSSBytes)
			}
		})
	}
}

func TestMetricsErrors(t *testing.T) {
	t.Parallel()
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	tests := []struct {
		name string
		h    http.HandlerFunc // nil: nothing listens
		want string
	}{
		{"dead endpoint", nil, "connect"},
		{"not found", func(w http.ResponseWriter, _ *http.Request) { http.NotFound(w, nil) }, "HTTP 404"},
		{"garbage", text("process_cpu_usage{ 1\n"), "parse text exposition"},
		{"nothing recognised", text("# TYPE up gauge\nup 1\n"), "none of the recognised series"},
		{"only NaN", text("process_cpu_usage NaN\nprocess_resident_memory_bytes -1\n"), "none of the recognised series"},
		{"truncated protobuf", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited")
			fmt.Fprint(w, "\x05abc")
		}, "parse protobuf exposition"},
		{"protobuf claiming gigabytes", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited")
			fmt.Fprint(w, "\xff\xff\xff\xff\x0f\x0a")
		}, "parse protobuf exposition"},
		{"HTML page", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>login</body></html>\n")
		}, "parse text exposition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := deadURL
			if tt.h != nil {
				u = serve(t, tt.h).URL
			}
			s, err := NewMetrics(u+"/metrics", HTTPOptions{User: "ves", Password: "pw-Secr3t", Timeout: 30 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			agg := NewAggregate(s.Source())
			r, err := agg.Take(context.Background(), s, time.Now())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Sample error = %v, want one containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "pw-Secr3t") {
				t.Errorf("error shows the password: %v", err)
			}
			if !r.NoCPU || r.RSSBytes != 0 {
				t.Errorf("failed reading = %+v, want an empty one", r)
			}
			tg := agg.Target()
			if tg.SampleErrors != 1 || tg.LastError != err.Error() {
				t.Errorf("Target errors %d %q, want 1 and the error text", tg.SampleErrors, tg.LastError)
			}
		})
	}
}

func TestMetricsBasicAuth(t *testing.T) {
	t.Parallel()
	const user, password = "sample1", "p@ss:w/rd-Secr3t"
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != user || p != password {
			w.Header().Set("WWW-Authenticate", `Basic realm="ves"`)
			http.Error(w, "unauthorized "+p, http.StatusUnauthorized) // echoes what it got
			return
		}
		text(micrometer)(w, r)
	})
	inURL := strings.Replace(srv.URL, "http://", "http://"+url.UserPassword(user, password).String()+"@", 1) + "/actuator/prometheus"
	tests := []struct {
		name  string
		url   string
		opts  HTTPOptions
		fails bool
	}{
		{"credentials in URL", inURL, HTTPOptions{}, false},
		{"credentials as options", srv.URL + "/actuator/prometheus", HTTPOptions{User: user, Password: password}, false},
		{"options win over URL", inURL, HTTPOptions{User: user, Password: "wrong-Secr3t"}, true},
		{"wrong password", srv.URL + "/actuator/prometheus", HTTPOptions{User: user, Password: "wrong-Secr3t"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := NewMetrics(tt.url, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(s.Source(), "Secr3t") || strings.Contains(s.Source(), user) {
				t.Errorf("Source shows credentials: %s", s.Source())
			}
			_, err = s.Sample(context.Background(), time.Now())
			if tt.fails != (err != nil) {
				t.Fatalf("Sample error = %v, want failure %v", err, tt.fails)
			}
			if err != nil && (strings.Contains(err.Error(), "Secr3t") || !strings.Contains(err.Error(), "401")) {
				t.Errorf("error = %q, want a 401 without the password", err)
			}
		})
	}
}
