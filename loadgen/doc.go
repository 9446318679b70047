// Package loadgen is vesload's engine: it decides when each request is due
// (the schedule), hands due requests to a bounded pool of connections,
// classifies what comes back and records it in HDR histograms and a
// per-second timeline.
//
// The engine is open-model: the schedule is a pure function of the request
// number, so a slow target never slows it down. Latency is measured from
// each request's due time (coordinated omission corrected) and service time
// from the moment the request was handed to a connection. A due request
// that finds no free connection within the pool wait is counted as
// pool_exhausted at its due time; nothing is dropped silently.
//
// The engine never formats output: it returns a result.Result and calls
// the Config's hooks, and the command line renders both.
package loadgen
