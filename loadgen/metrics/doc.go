// Package metrics serves vesload's own live Prometheus metrics during a
// run (--metrics-addr): requests by outcome and status code, latency and
// service time as histograms (native and classic buckets), in-flight
// requests, pool exhaustion, target against achieved rate, dispatch lag,
// and the CPU and memory of the target and of the generator.
//
// It owns the metric names (all vesload_*) and their labels, which the
// Grafana dashboard in deploy/grafana relies on. It must not build a label
// from a URL, an event id or an error message: every label has a small,
// bounded set of values. It must stay cheap on the per-request path and
// must not measure anything itself; the engine and the samplers feed it.
// It writes the text format, or the protobuf exposition that carries the
// native histograms, through internal/promtext: the Prometheus client
// library is not linked, to keep the binary and its resident memory small.
package metrics
