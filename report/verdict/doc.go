// Package verdict decides whether a run passed: it judges a result by the
// user's gates (--threshold, and --abort-on-fail on the whole run) and by
// the built-in rules a run fails without any gate of its own (nothing
// succeeded; with --consume, none of the run's events delivered; for
// HV-VES, messages lost to a disconnect, nothing received, messages
// dropped), and turns the outcome into the process exit code. Every word
// about the outcome (a broken rule's consequence, the summary's verdict
// line, the warning of a run whose errors no gate held) is derived here
// from that one verdict, so that none contradicts the exit code.
//
// A run, an HV-VES run and vesload merge judge their results here, the same
// way, so a sharded run is held to the rules its shards deferred to the
// merge (docs/ARCHITECTURE.md, "The verdict"). The package reads results
// only: it does no I/O and imports nothing of loadgen.
package verdict
