// Package metric is the registry of the figures a result can be judged,
// compared and followed by: each protocol (REST through the engine,
// HV-VES) and the delivery follower declares its metrics once, in a file
// of its own (rest.go, hv.go, delivery.go), with the name users write in
// gates, its unit and kind, how shards merge it, which way it gets worse,
// how to read it off a result.Result and why a result may lack it.
//
// Everything that names a metric reads this package: the threshold
// grammar (report/threshold), the regression gates and the table of
// differences (report/compare), a history's series (report/trend) and the
// verdict's built-in rules (report/verdict). None of them spells out a
// protocol's metric, so that adding one is a declaration here and nothing
// else (a test in report/ fails on a metric's name written outside
// report/result).
//
// The registry is a plain list built by All on each call: nothing is
// registered at init time and nothing can change it. Like report/result,
// it reads results and does no I/O; it imports report/result alone.
package metric
