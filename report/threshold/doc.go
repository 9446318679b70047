// Package threshold parses and evaluates the CI gates of a run: short
// expressions such as "p99<500ms" or "error_rate<0.1%" that decide, with
// the exit code, whether a pipeline passes (docs/ARCHITECTURE.md, "Who it is for", use 3).
//
// It owns the grammar below and its units; the metrics it names, their
// spellings, kinds and how each is read off a result are declared by
// whoever measures them in the registry (report/result/metric), and
// "did you mean" chooses among the registry's names. It reads a finished
// result.Result and never runs load, touches the network or formats
// reports (report renders the outcomes).
//
// # Grammar
//
//	threshold = METRIC OP VALUE [UNIT]
//	OP        = "<" | "<=" | ">" | ">=" | "==" | "!="
//	VALUE     = digits [ "." digits ] | "." digits     (no sign, no exponent)
//
// Whitespace is allowed around every part ("p99 < 500 ms"). Metric names
// are case-insensitive. Errors name the 1-based column (in characters) of
// the mistake and what was expected there:
//
//	threshold "p99<5xs": column 6: unknown unit "xs" (want us, ms, s, m)
//
// # Metrics
//
// Latency, from the due time, compared in milliseconds; a unit is required
// (us or µs, ms, s, m):
//
//	avg min max p50 p90 p95 p99 p999
//
// Percentiles may also be written p(95), p99.9 or p(99.9). The same
// statistics of service time (from the write) are service_avg,
// service_min, service_max, service_p50 … service_p999. The generator's
// dispatch lag is dispatch_lag_p50, dispatch_lag_p99, dispatch_lag_max.
//
// Errors:
//
//	error_rate        failed / attempted requests, in percent; the "%" is
//	                  required ("error_rate<1%"): "error_rate<1" reads as
//	                  1 % or as the fraction 1 (100 %), so it is refused
//	                  naming both; only 0 may go without it
//	errors            number of failed requests
//	errors.CLASS      failures of one class: http_503, timeout,
//	                  conn_refused, conn_reset, dns, tls, pool_exhausted,
//	                  other; http_5xx (or http_4xx, …) sums a status family
//
// Counts, no unit: sent, not_sent, scheduled, ok. Achieved request rate:
// rps (no unit, or "/s").
//
// Resources, in percent ("%" optional): target_cpu_max, target_cpu_avg,
// generator_cpu_max, generator_cpu_avg. Memory, in bytes with an optional
// unit B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (powers of 1024):
// target_rss_max, generator_rss_max.
//
// Delivery (with --consume), counts of events: delivery.delivered,
// delivery.lost, delivery.lost_though_accepted,
// delivery.delivered_though_rejected, delivery.duplicates,
// delivery.out_of_order, delivery.foreign. End-to-end latency from the due
// time to the output topic's record timestamp (to the read when the
// source has none), with a unit like latency: e2e_avg, e2e_p50 …
// e2e_max, e.g. "e2e_p99<2s".
//
// # Evaluation
//
// A metric the result does not have (target figures when the target was
// not sampled, latency when nothing was recorded, the error rate when
// nothing was attempted) fails its gate with a Reason: a gate that cannot
// be checked must not pass silently.
package threshold
