package sample

import (
	"fmt"
	"strings"
)

// TargetOptions say how the system under test is watched during a run:
// local processes, or its Prometheus endpoint, and PromQL queries beside
// either (vesload's --target-* and --prom-* options, whose names the
// errors use).
type TargetOptions struct {
	PIDs      []int32
	Processes []string
	// MetricsURL is the target's Prometheus endpoint.
	MetricsURL string
	// PromURL is a Prometheus server that PromQueries (NAME=PROMQL) are
	// evaluated against.
	PromURL     string
	PromQueries []string
	// HTTP reaches MetricsURL and PromURL.
	HTTP HTTPOptions
}

// Target builds the sampler of the system under test, or nil when
// nothing is to be sampled: a local process or an endpoint, with the
// PromQL queries combined into its readings.
func Target(o TargetOptions) (Sampler, error) {
	var primary Sampler
	var err error
	local := len(o.PIDs) > 0 || len(o.Processes) > 0
	switch {
	case local && o.MetricsURL != "":
		return nil, fmt.Errorf("--target-metrics: choose either a local process (--target-pid/--target-process) or a metrics endpoint")
	case local:
		for _, p := range o.PIDs {
			if p <= 0 {
				return nil, fmt.Errorf("--target-pid %d: want a process id", p)
			}
		}
		if primary, err = NewProcess(o.PIDs, o.Processes); err != nil {
			return nil, fmt.Errorf("--target-pid/--target-process: %v", err)
		}
	case o.MetricsURL != "":
		if primary, err = NewMetrics(o.MetricsURL, o.HTTP); err != nil {
			return nil, fmt.Errorf("--target-metrics: %v", err)
		}
	}
	if (o.PromURL == "") != (len(o.PromQueries) == 0) {
		return nil, fmt.Errorf("--prom-url and --prom-query go together")
	}
	if o.PromURL != "" {
		queries := map[string]string{}
		for _, q := range o.PromQueries {
			name, expr, ok := strings.Cut(q, "=")
			if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(expr) == "" {
				return nil, fmt.Errorf("--prom-query %q: want NAME=PROMQL", q)
			}
			queries[strings.TrimSpace(name)] = expr
		}
		pq, err := NewPromQL(o.PromURL, queries, o.HTTP)
		if err != nil {
			return nil, fmt.Errorf("--prom-url: %v", err)
		}
		if primary == nil {
			return pq, nil
		}
		return Combine(primary, pq), nil
	}
	return primary, nil
}
