// Package grafana reads the PromQL queries out of a Grafana dashboard
// (deploy/grafana/vesload.json), so that tests can check them against
// the exported metric names and evaluate them on a real Prometheus.
package grafana

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Queries returns every PromQL expression of the dashboard at path:
// panel targets' expr, and the metric selector of each query variable's
// label_values(selector, label).
func Queries(path string) ([]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var dash map[string]any
	if err := json.Unmarshal(raw, &dash); err != nil {
		return nil, fmt.Errorf("dashboard %s is not JSON: %w", path, err)
	}
	var out []string
	collect(dash, &out)
	return out, nil
}

func collect(v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if s, ok := child.(string); ok && k == "expr" {
				*out = append(*out, s)
				continue
			}
			if k == "query" && x["type"] == "query" {
				variableQuery(child, out)
				continue
			}
			collect(child, out)
		}
	case []any:
		for _, child := range x {
			collect(child, out)
		}
	}
}

// variableQuery reads a variable's query, a string or {"query": …},
// without its label_values(metric, label) label argument.
func variableQuery(q any, out *[]string) {
	if m, ok := q.(map[string]any); ok {
		q = m["query"]
	}
	s, _ := q.(string)
	if inner, ok := strings.CutPrefix(s, "label_values("); ok {
		if i := strings.LastIndex(inner, ","); i >= 0 {
			s = inner[:i]
		}
	}
	*out = append(*out, s)
}

// Expand replaces Grafana's variables the way a dashboard showing every
// job and instance over a short range would: $job and $instance match
// everything, $__rate_interval and $__interval are rateWindow, $__range
// is rangeWindow.
func Expand(expr, rateWindow, rangeWindow string) string {
	return strings.NewReplacer(
		"${__rate_interval}", rateWindow, "$__rate_interval", rateWindow,
		"${__interval}", rateWindow, "$__interval", rateWindow,
		"${__range}", rangeWindow, "$__range", rangeWindow,
		"${job}", ".*", "$job", ".*",
		"${instance}", ".*", "$instance", ".*",
	).Replace(expr)
}
