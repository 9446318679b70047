// Package sample measures the resources of the system under test and of
// vesload itself while a run is going on: CPU (100 % = one core, as pidstat
// reports it), resident and virtual memory, page faults and threads.
//
// It owns four kinds of Sampler behind one small interface: local processes
// chosen by pid or by name (NewProcess), vesload's own process (NewSelf), a
// remote Prometheus or OpenMetrics endpoint such as the VES collector's
// Spring actuator (NewMetrics), and PromQL instant queries against a
// Prometheus server (NewPromQL). Aggregate folds the readings of a run into
// the result document's target section.
//
// The package must not decide when to sample (the engine ticks it), must not
// stop a run (a failed sample is an error value that Aggregate counts), and
// must never let a password reach a Source, an error text or a log line.
package sample
