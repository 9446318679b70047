package grafana

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestQueries(t *testing.T) {
	t.Parallel()
	dash := `{"templating": {"list": [
	  {"name": "job", "type": "query", "query": {"query": "label_values(up{a=\"b,c\"}, job)"}},
	  {"name": "ds", "type": "datasource", "query": "prometheus"}]},
	 "panels": [{"targets": [{"expr": "rate(x[$__rate_interval])"}]},
	            {"panels": [{"targets": [{"expr": "y{job=~\"$job\"}"}]}]}]}`
	path := filepath.Join(t.TempDir(), "d.json")
	if err := os.WriteFile(path, []byte(dash), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Queries(path)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"rate(x[$__rate_interval])", `up{a="b,c"}`, `y{job=~"$job"}`}
	if !slices.Equal(got, want) {
		t.Errorf("Queries = %q, want %q", got, want)
	}
	if _, err := Queries(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("a missing dashboard gave no error")
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`rate(a{job=~"$job", instance=~"$instance"}[$__rate_interval])`, `rate(a{job=~".*", instance=~".*"}[5s])`},
		{`max_over_time(b[$__range])`, `max_over_time(b[1m])`},
		{`c[${__rate_interval}]`, `c[5s]`},
	}
	for _, tc := range tests {
		if got := Expand(tc.in, "5s", "1m"); got != tc.want {
			t.Errorf("Expand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
