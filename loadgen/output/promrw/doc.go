// Package promrw pushes a run's per-second figures to a Prometheus
// remote write endpoint (the 1.0 protocol: a prometheus.WriteRequest in
// protobuf, snappy-compressed), as k6 does for pods that live too short
// to be scraped. The HTTP exchange, compression and retries are
// client_golang's own remote API (exp/api/remote); this package owns the
// series and their delivery:
//
//   - vesload_run_requests_total{outcome="ok"|<error class>}: the
//     requests due up to the end of each second of the timeline that
//     finished, cumulative, so that sum() is the run's requests and
//     increase() and rate() read as PromQL expects of a counter;
//   - vesload_run_bytes_sent_total, vesload_run_bytes_received_total:
//     cumulative bytes on the wire;
//   - vesload_run_latency_seconds{quantile="0.5"|"0.9"|"0.95"|"0.99"|"1"}:
//     the latency of the requests due in that second (from their due
//     time), read from the second's histogram;
//   - vesload_run_in_flight: requests on a connection, once a second.
//
// Every series carries job (--remote-write-job), and shard and run_id
// when the run has them, so that the shards of one run never overwrite
// each other's series. No label holds a URL or an error text: error
// classes are the taxonomy's few names.
//
// Each second's samples are stamped with the end of that second of the
// timeline and go to a bounded queue drained by one goroutine; a full
// queue drops the batch and counts it, a failed write is counted with its
// reason, and neither ever slows or fails the run.
package promrw
