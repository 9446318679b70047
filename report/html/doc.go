// Package html renders results and comparisons as one self-contained HTML
// page: styles, chart data and scripts inline, charts drawn in the
// browser by the uPlot build embedded in the binary (assets/uplot/, with
// its licence and version; `make uplot` refreshes it), nothing fetched
// from anywhere, so that the file opens offline on a jump host, can be
// mailed or attached to a CI job, and prints legibly.
//
// A run's page shows the summary in the seed-table layout, the threshold
// verdicts, latency p50/p99/max per second, target versus achieved rate,
// errors per second by class, the latency percentile spectrum on a
// logarithmic 1/(1-q) axis out to p99.99 (latency and service time
// overlaid, as HdrHistogram's plotter draws it), target and generator CPU
// and memory over time, pool use against the pool size, errors by class
// and the configuration. Charts over seconds share one cursor; each can
// be zoomed, hovered for values and have its lines toggled. A
// comparison's page shows the comparison table with its significance
// markers, both sides' spectra and every run's per-second p99, rate and
// errors overlaid.
//
// Output is deterministic for a given input. The package only formats:
// it never runs load, reads files or touches the network, and it
// redacts URL passwords and credential headers even though results are
// redacted by their writer.
package html
