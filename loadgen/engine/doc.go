// Package loadgen is vesload's engine, a pipeline of parts with one job
// each (docs/ARCHITECTURE.md, "The pipeline"): a Model says when each
// request is due (the open-model Schedule or the closed-model ramp) and
// owns the loop that dispatches it; the dispatcher hands due requests to a
// bounded pool of connections, or to the pool waiter when none is free; a
// transport (package transport) sends each one and reports its outcome;
// the recorder counts outcomes into result.Tally values (the run, each
// request kind, each closed-model step, each due second of the timeline)
// and fans every event out to the registered Observers, in order.
//
// The open model never waits for the target: latency is measured from
// each request's due time (coordinated omission corrected) and service
// time from the hand-over to a connection. A due request that finds no
// free connection within the pool wait is counted as pool_exhausted at
// its due time; nothing is dropped silently, and time spent waiting for a
// connection or for a silent target is never counted as the generator's
// own delay.
//
// The engine never formats output and never writes files: it returns a
// result.Result and calls its observers; the command line renders both.
// It does not import any protocol's client nor build a transport: the
// caller builds one (the VES REST transport of loadgen/transport/rest, the
// HV-VES one of loadgen/transport/hv) and hands it over in Config.Transport; New
// refuses a Config without one.
package engine
