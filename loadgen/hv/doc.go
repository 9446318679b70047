// Package hv loads an HV-VES collector the way its clients do: N
// independent producers, each a TCP (or TLS) connection writing one WTP
// frame per message on its own open-model schedule. Message i of producer
// p is due at start + phase(p) + i·interval, the producers' phases spread
// evenly over one interval so they do not fire together.
//
// The collector never answers, so what a producer can see is how long
// its writes block (TCP back-pressure), how late it dispatched, how long
// connections and TLS handshakes took and why connections dropped. A
// dropped connection is re-made; messages that fall due while it is down
// are counted as not sent, never skipped silently:
// scheduled = sent + not_sent, sent = written + failed.
//
// It records and returns Results; it prints nothing. See
// docs/ARCHITECTURE.md for where it sits beside the REST engine.
package hv
