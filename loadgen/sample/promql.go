package sample

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// Query names with a meaning beyond their Extra series.
const (
	// QueryCPU is CPU in cores (CPU seconds per second, what rate() of a
	// *_cpu_seconds_total counter gives); it sets CPUPct as cores × 100.
	QueryCPU = "cpu"
	// QueryCPUPct is CPU already in percent of one core; it sets CPUPct
	// as is.
	QueryCPUPct = "cpu_pct"
	// QueryRSS and QueryMemory are resident memory in bytes; either sets
	// RSSBytes.
	QueryRSS    = "rss"
	QueryMemory = "memory"
)

// promQLSampler evaluates named PromQL instant queries.
type promQLSampler struct {
	api      *promAPI
	source   string
	password string
	names    []string // sorted
	queries  map[string]string
	timeout  time.Duration
}

// NewPromQL samples a target through a Prometheus server, for targets that
// vesload cannot reach directly (a pod on Kubernetes): each Sample
// evaluates every query as an instant query at the server's current time,
// so that clock skew between hosts does not matter. A query's scalar, or
// the sum of its vector, goes to Extra under the query's name; the names
// cpu, cpu_pct, rss and memory also fill CPUPct and RSSBytes (see QueryCPU).
func NewPromQL(baseURL string, queries map[string]string, opts HTTPOptions) (Sampler, error) {
	if len(queries) == 0 {
		return nil, errors.New("promql sampler: no query given")
	}
	ep, err := parseEndpoint(baseURL, opts)
	if err != nil {
		return nil, fmt.Errorf("prometheus URL: %w", err)
	}
	t, err := newTransport(opts)
	if err != nil {
		return nil, fmt.Errorf("prometheus %s: %w", ep.url.String(), err)
	}
	s := &promQLSampler{
		api:      newPromAPI(ep.url, &http.Client{Transport: ep.roundTripper(t)}),
		source:   "promql:" + ep.url.String(),
		password: ep.password,
		queries:  make(map[string]string, len(queries)),
		timeout:  timeout(opts),
	}
	for name, q := range queries {
		if name == "" || q == "" {
			return nil, fmt.Errorf("promql query %q=%q: needs a name and an expression", name, q)
		}
		s.names = append(s.names, name)
		s.queries[name] = q
	}
	slices.Sort(s.names)
	return s, nil
}

// Source implements Sampler.
func (s *promQLSampler) Source() string { return s.source }

// Series implements Sampler: the queries as name=expression, sorted by
// name.
func (s *promQLSampler) Series() []string {
	out := make([]string, len(s.names))
	for i, name := range s.names {
		out[i] = name + "=" + s.queries[name]
	}
	return out
}

// Sample implements Sampler. When some queries fail and others succeed,
// the reading holds the successful ones and the error wraps ErrPartial.
func (s *promQLSampler) Sample(ctx context.Context, _ time.Time) (Reading, error) {
	r := Reading{NoCPU: true, Extra: make(map[string]float64, len(s.names))}
	var errs []error
	for _, name := range s.names {
		v, err := s.query(ctx, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		r.Extra[name] = v
		s.apply(&r, name, v)
	}
	if len(errs) == 0 {
		return r, nil
	}
	err := scrub(errors.Join(errs...), s.password)
	if len(r.Extra) == 0 {
		return Reading{NoCPU: true}, err
	}
	return r, fmt.Errorf("%w: %w", ErrPartial, err)
}

// query evaluates one named query to a single finite number.
func (s *promQLSampler) query(ctx context.Context, name string) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	res, err := s.api.query(ctx, s.queries[name])
	if err != nil {
		return 0, fmt.Errorf("query %s: %w", name, err)
	}
	v, err := res.number()
	if err != nil {
		return 0, fmt.Errorf("query %s: %w", name, err)
	}
	return v, nil
}

// apply fills the fields of r that a query's name stands for.
func (s *promQLSampler) apply(r *Reading, name string, v float64) {
	switch name {
	case QueryCPU:
		r.CPUPct, r.NoCPU = v*100, false
	case QueryCPUPct:
		r.CPUPct, r.NoCPU = v, false
	case QueryRSS, QueryMemory:
		if v >= 0 {
			r.RSSBytes = toInt64(v)
		}
	}
}
