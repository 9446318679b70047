// Package delivery follows a run's events past the collector, onto its
// output topic (Kafka, or DMaaP Message Router for older deployments),
// and measures what a 202 cannot prove: delivered, lost, lost though
// accepted, duplicates, out of order per partition, and the end-to-end
// latency from each event's due time to its record timestamp and to the
// moment it was read (docs/ARCHITECTURE.md, "Delivery").
//
// Events are recognised by their eventId, "<runID>-<n>" where n is the
// event's global number, so no per-request state is kept beyond two bits
// per event: seen, and accepted (filled by a per-request observer). The
// caller gives the event's due time as a pure function of n. Records that
// are not the run's are counted as foreign and otherwise ignored.
//
// A run follows in a process of its own, so that the generator's figures
// measure the generator alone: Remote is the run's side, Serve the
// follower's, a Plan tells the follower the run, and the run keeps the
// accepted bitmap (Acceptance) and hands it over at the end.
//
// It owns the consumers and the tally; it formats nothing.
package delivery
