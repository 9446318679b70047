// Package hv loads an HV-VES collector the way its clients do: N
// independent producers, each a TCP (or TLS) connection writing one WTP
// frame per message on its own open-model schedule. Message i of producer
// p is due at start + phase(p) + i·interval, the producers' phases spread
// evenly over one interval so they do not fire together.
//
// It is a transport of the engine (Transport, EngineConfig): the engine
// keeps the schedule, the timeline, the accounting and the observers, as
// for a REST run; request n is message n / N of producer n mod N. The
// collector never answers, so what a producer can see is how long its
// writes block (TCP back-pressure, the service time), how late a message
// was written (the latency), how long connections and TLS handshakes took
// and why connections dropped. A dropped connection is re-made; messages
// that fall due while it is down are errors of class disconnected, never
// skipped silently. The hv section of the result is the Transport's
// (AddSection).
//
// It also reads the collector's own counters (ScrapeCollector, Lives,
// Settle) for the receiver's view. It prints nothing. See
// docs/ARCHITECTURE.md for where it sits beside the REST transport.
package hv
