// Package report renders the result document of a run (whose contract is
// package report/result): the human text summary, the Markdown seed
// table, JUnit XML for CI and the per-second timeline as CSV.
//
// Everything here is a pure function from results to bytes: the package
// never touches the network, never runs load, reads or writes no file
// (report/resultfile does), and imports nothing of the engine: the live
// line of a run's second (ProgressLine) renders its own Progress, which
// the run's caller fills, and `vesload probe`'s figures (WriteProbe) are
// report/result's Probe.
//
// Renderers degrade gracefully: a result with no requests, no histograms
// or no target sampling renders with "n/a" where a figure is missing
// instead of failing.
package report
