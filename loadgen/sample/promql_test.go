package sample

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakePrometheus answers /api/v1/query from a table of canned results,
// and only with the right basic-auth credentials.
func fakePrometheus(t *testing.T, results map[string]string) string {
	t.Helper()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "prom" || p != "pw-Secr3t" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.URL.Path != "/api/v1/query" {
			http.NotFound(w, r)
			return
		}
		if err := r.ParseForm(); err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/json")
		data, ok := results[r.Form.Get("query")]
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"status":"error","errorType":"bad_data","error":"parse error at char 1"}`)
			return
		}
		fmt.Fprintf(w, `{"status":"success","data":%s}`, data)
	})
	return srv.URL
}

func TestPromQL(t *testing.T) {
	t.Parallel()
	base := fakePrometheus(t, map[string]string{
		"cpu_q": `{"resultType":"vector","result":[{"metric":{"pod":"a"},"value":[1700000000,"0.5"]},` +
			`{"metric":{"pod":"b"},"value":[1700000000,"0.25"]}]}`,
		"rss_q":    `{"resultType":"scalar","result":[1700000000,"1048576"]}`,
		"queue_q":  `{"resultType":"vector","result":[{"metric":{},"value":[1700000000,"12"]}]}`,
		"empty_q":  `{"resultType":"vector","result":[]}`,
		"matrix_q": `{"resultType":"matrix","result":[{"metric":{},"values":[[1700000000,"1"]]}]}`,
		"nan_q":    `{"resultType":"scalar","result":[1700000000,"NaN"]}`,
	})
	auth := HTTPOptions{User: "prom", Password: "pw-Secr3t"}
	tests := []struct {
		name    string
		queries map[string]string
		opts    HTTPOptions
		partial bool   // an error wrapping ErrPartial with a usable reading
		err     string // a total failure containing this
		cpu     float64
		noCPU   bool
		rss     int64
		extra   map[string]float64
	}{
		{
			name:    "cpu in cores, rss, extra",
			queries: map[string]string{"cpu": "cpu_q", "rss": "rss_q", "queue": "queue_q"},
			opts:    auth,
			cpu:     75,
			rss:     1 << 20,
			extra:   map[string]float64{"cpu": 0.75, "rss": 1 << 20, "queue": 12},
		},
		{
			name:    "cpu_pct as is, memory",
			queries: map[string]string{"cpu_pct": "queue_q", "memory": "rss_q"},
			opts:    auth,
			cpu:     12,
			rss:     1 << 20,
		},
		{
			name:    "some fail",
			queries: map[string]string{"queue": "queue_q", "bad": "nope(", "none": "empty_q", "range": "matrix_q", "nan": "nan_q"},
			opts:    auth,
			partial: true,
			noCPU:   true,
			extra:   map[string]float64{"queue": 12},
		},
		{
			name:    "all fail",
			queries: map[string]string{"none": "empty_q"},
			opts:    auth,
			err:     "query none: no series",
		},
		{
			name:    "unauthorized",
			queries: map[string]string{"cpu": "cpu_q"},
			opts:    HTTPOptions{User: "prom", Password: "wrong-Secr3t"},
			err:     "query cpu",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := NewPromQL(base, tt.queries, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if s.Source() != "promql:"+base {
				t.Errorf("Source = %q", s.Source())
			}
			r, err := s.Sample(context.Background(), time.Now())
			if err != nil && strings.Contains(err.Error(), "Secr3t") {
				t.Errorf("error shows the password: %v", err)
			}
			switch {
			case tt.err != "":
				if err == nil || errors.Is(err, ErrPartial) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want a total failure containing %q", err, tt.err)
				}
				return
			case tt.partial:
				if !errors.Is(err, ErrPartial) {
					t.Fatalf("error = %v, want ErrPartial", err)
				}
				for _, name := range []string{"bad", "none", "range", "nan"} {
					if !strings.Contains(err.Error(), "query "+name) {
						t.Errorf("error %q does not name query %s", err, name)
					}
				}
			case err != nil:
				t.Fatal(err)
			}
			if r.NoCPU != tt.noCPU || !near(r.CPUPct, tt.cpu) || r.RSSBytes != tt.rss {
				t.Errorf("CPUPct %v NoCPU %v RSS %d; want %v %v %d", r.CPUPct, r.NoCPU, r.RSSBytes, tt.cpu, tt.noCPU, tt.rss)
			}
			for name, want := range tt.extra {
				if got := r.Extra[name]; !near(got, want) {
					t.Errorf("Extra[%s] = %v, want %v", name, got, want)
				}
			}
			if tt.extra != nil && len(r.Extra) != len(tt.extra) {
				t.Errorf("Extra = %v, want only %v", r.Extra, tt.extra)
			}
		})
	}
}

func TestPromQLSeriesAndErrors(t *testing.T) {
	t.Parallel()
	s, err := NewPromQL("http://prom:pw-Secr3t@127.0.0.1:9/", map[string]string{"rss": "b", "cpu": "a"}, HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Series(); !slices.Equal(got, []string{"cpu=a", "rss=b"}) {
		t.Errorf("Series = %v", got)
	}
	if strings.Contains(s.Source(), "Secr3t") {
		t.Errorf("Source shows the password: %s", s.Source())
	}
	for _, q := range []map[string]string{nil, {"": "up"}, {"cpu": ""}} {
		if _, err := NewPromQL("http://127.0.0.1:9", q, HTTPOptions{}); err == nil {
			t.Errorf("NewPromQL(%v) accepted", q)
		}
	}
}
