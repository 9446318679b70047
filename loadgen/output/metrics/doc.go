// Package metrics serves vesload's own live Prometheus metrics during a
// run (--metrics-addr): requests by outcome and status code, latency and
// service time as histograms (native and classic buckets), in-flight
// requests, pool exhaustion and requests never sent, target against
// achieved rate, dispatch lag, and the CPU and memory of the target and of
// the generator.
//
// It owns the metric names (all vesload_*) and their labels, which the
// Grafana dashboard in deploy/grafana relies on. It must not build a label
// from a URL, an event id or an error message: every label has a small,
// bounded set of values. It must stay cheap on the per-request path (a
// counter, no histogram) and must not measure anything itself; the engine
// and the samplers feed it: the latency and service-time histograms are
// the engine's seconds, merged, rendered only when scraped.
//
// The exposition is client_golang's: a registry of the exporter's own,
// the standard Go runtime and process collectors beside vesload's series,
// and promhttp's content negotiation (text, OpenMetrics, and the protobuf
// exposition that carries native histograms).
package metrics
