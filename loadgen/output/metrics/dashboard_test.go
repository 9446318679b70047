package metrics

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/vesload/vesload/internal/grafana"
)

// deployDir holds the dashboard and the Prometheus configuration.
var deployDir = filepath.Join("..", "..", "..", "deploy")

// promqlIdent matches identifiers in what is left of a PromQL expression
// once strings, label matchers, ranges and Grafana variables are gone.
var promqlIdent = regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*`)

// promqlStrip removes the parts of an expression that are not metric
// names: string literals, {…} matchers, […] ranges, $variables, and the
// label lists of by/without/on/ignoring/group_left/group_right.
var promqlStrip = []*regexp.Regexp{
	regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`),
	regexp.MustCompile(`\{[^}]*\}`),
	regexp.MustCompile(`\[[^\]]*\]`),
	regexp.MustCompile(`\$\{?\w+\}?`),
	regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`),
	regexp.MustCompile(`\b\d+(?:\.\d+)?(?:e[+-]?\d+)?[a-z]*\b`), // numbers and durations
}

// promqlWords are keywords, never metric names.
var promqlWords = []string{"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring",
	"group_left", "group_right", "inf", "nan", "Inf", "NaN"}

// promqlMetricNames lists the metric names an expression selects, with
// the _bucket, _sum and _count suffixes of histogram series taken off.
func promqlMetricNames(expr string) []string {
	for _, re := range promqlStrip {
		expr = re.ReplaceAllString(expr, " ")
	}
	var names []string
	for _, loc := range promqlIdent.FindAllStringIndex(expr, -1) {
		word := expr[loc[0]:loc[1]]
		rest := strings.TrimLeft(expr[loc[1]:], " \t\n")
		if strings.HasPrefix(rest, "(") || slices.Contains(promqlWords, word) {
			continue // a function or aggregation, or a keyword
		}
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			word = strings.TrimSuffix(word, suffix)
		}
		if !slices.Contains(names, word) {
			names = append(names, word)
		}
	}
	return names
}

func TestPromQLMetricNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		want []string
	}{
		{`vesload_in_flight`, []string{"vesload_in_flight"}},
		{`sum by (outcome) (rate(vesload_requests_total{job=~"$job", outcome!="ok"}[$__rate_interval]))`,
			[]string{"vesload_requests_total"}},
		{`histogram_quantile(0.99, sum by (le) (rate(vesload_request_latency_seconds_bucket{job="a"}[5m])))`,
			[]string{"vesload_request_latency_seconds"}},
		{`rate(a_sum[1m]) / rate(a_count[1m]) > bool 0.5 and on (instance) b offset 5m`, []string{"a", "b"}},
		{`100 * sum(x{l="by (y)"}) / sum without (code) (z)`, []string{"x", "z"}},
		{`sum(rate(vesload_requests_total{code=~"5.."}[$__rate_interval])) / ignoring(code) group_left sum(up)`,
			[]string{"vesload_requests_total", "up"}},
		{`max(max_over_time(m[${__range}])) + 1e3`, []string{"m"}},
	}
	for _, tt := range tests {
		if got := promqlMetricNames(tt.expr); !slices.Equal(got, tt.want) {
			t.Errorf("promqlMetricNames(%q) = %v, want %v", tt.expr, got, tt.want)
		}
	}
}

func TestDashboardUsesExportedMetrics(t *testing.T) {
	t.Parallel()
	exprs, err := grafana.Queries(filepath.Join(deployDir, "grafana", "vesload.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(exprs) < 10 {
		t.Fatalf("found %d queries in the dashboard, want its panels' queries", len(exprs))
	}
	e := New()
	observeAll(e)
	exported := map[string]bool{}
	for name := range scrape(t, e.Handler()) {
		exported[name] = true
	}
	used := map[string]bool{}
	for _, expr := range exprs {
		names := promqlMetricNames(expr)
		if len(names) == 0 {
			t.Errorf("query %q selects no metric", expr)
		}
		for _, name := range names {
			used[name] = true
			if !exported[name] {
				t.Errorf("query %q uses %s, which vesload does not export", expr, name)
			}
		}
	}
	// The dashboard covers what the issue asks for.
	for _, name := range []string{
		"vesload_target_rps", "vesload_achieved_rps", "vesload_requests_total",
		"vesload_request_latency_seconds", "vesload_request_service_seconds",
		"vesload_pool_exhausted_total", "vesload_in_flight", "vesload_dispatch_lag_seconds",
		"vesload_target_cpu_percent", "vesload_target_rss_bytes",
		"vesload_generator_cpu_percent", "vesload_generator_rss_bytes",
	} {
		if !used[name] {
			t.Errorf("no dashboard panel shows %s", name)
		}
	}
}

func TestDashboardPanels(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join(deployDir, "grafana", "vesload.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		UID    string `json:"uid"`
		Title  string `json:"title"`
		Panels []struct {
			ID         int    `json:"id"`
			Title      string `json:"title"`
			Datasource struct {
				UID string `json:"uid"`
			} `json:"datasource"`
			Targets []struct {
				RefID string `json:"refId"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatal(err)
	}
	if dash.UID == "" || dash.Title == "" || len(dash.Panels) == 0 {
		t.Fatalf("dashboard lacks uid, title or panels")
	}
	ids := map[int]bool{}
	for _, p := range dash.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d used twice", p.ID)
		}
		ids[p.ID] = true
		if p.Datasource.UID != "${datasource}" {
			t.Errorf("panel %q uses data source %q, want the ${datasource} variable", p.Title, p.Datasource.UID)
		}
		refs := map[string]bool{}
		for _, tg := range p.Targets {
			if refs[tg.RefID] {
				t.Errorf("panel %q repeats refId %s", p.Title, tg.RefID)
			}
			refs[tg.RefID] = true
		}
	}
}

func TestPrometheusConfig(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join(deployDir, "prometheus", "prometheus.yml"))
	if err != nil {
		t.Fatal(err)
	}
	type job struct {
		JobName        string `yaml:"job_name"`
		MetricsPath    string `yaml:"metrics_path"`
		ScrapeInterval string `yaml:"scrape_interval"`
		ScrapeTimeout  string `yaml:"scrape_timeout"`
		StaticConfigs  []struct {
			Targets []string `yaml:"targets"`
		} `yaml:"static_configs"`
	}
	var cfg struct {
		ScrapeConfigs []job `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatalf("prometheus.yml: %v", err)
	}
	jobs := map[string]job{}
	for _, j := range cfg.ScrapeConfigs {
		jobs[j.JobName] = j
		if len(j.StaticConfigs) == 0 || len(j.StaticConfigs[0].Targets) == 0 {
			t.Errorf("job %s has no target", j.JobName)
		}
		if j.ScrapeTimeout != "" && j.ScrapeInterval != "" {
			timeout, err1 := time.ParseDuration(j.ScrapeTimeout)
			interval, err2 := time.ParseDuration(j.ScrapeInterval)
			if err1 != nil || err2 != nil || timeout > interval {
				t.Errorf("job %s: scrape_timeout %s, scrape_interval %s: want durations, timeout ≤ interval",
					j.JobName, j.ScrapeTimeout, j.ScrapeInterval)
			}
		}
	}
	if j, ok := jobs["vesload"]; !ok || j.MetricsPath != MetricsPath || !strings.HasSuffix(j.StaticConfigs[0].Targets[0], ":9464") {
		t.Errorf("vesload job = %+v, want %s on port 9464", j, MetricsPath)
	}
	if j, ok := jobs["ves-collector"]; !ok || j.MetricsPath != "/actuator/prometheus" {
		t.Errorf("ves-collector job = %+v, want /actuator/prometheus", j)
	}
}
