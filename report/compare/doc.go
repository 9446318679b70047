// Package compare decides whether two sets of runs differ: build A
// against build B, each repeated a few times with the same profile
// (docs/ARCHITECTURE.md, "Who it is for", use 2). It turns the per-run figures of the result documents
// into one table of metrics with, per side, a centre and spread over the
// runs, the change of B against A, a p-value and a verdict at alpha 0.05,
// where "~" means the runs cannot tell the two sides apart.
//
// The default test is Welch's t-test, which can decide with three runs a
// side (what the ONAP comparisons use); the Mann-Whitney U test, as
// benchstat uses it, needs at least four and the comparison says so. With
// a single run on a side, run-to-run variation is unknown: the two
// latency distributions are then compared request by request from their
// HDR histograms, and the comparison says plainly what that cannot show.
//
// Runs are comparable only when they were asked the same thing: Compare
// refuses runs whose rate, duration, body or target path differ unless
// forced, and names the field.
//
// Regression gates (Gate, ParseGate) turn a comparison into a CI
// decision: "p99<+10%" fails when B is worse than A by more than the
// tolerance and the difference is significant at alpha with the chosen
// test; too few runs to decide make a gate undecided, which a policy
// turns into pass or fail. The metric names are the threshold grammar's
// (report/threshold), read through threshold.Measure so that a name
// means one figure everywhere. JudgeBaseline decides the same gates for
// one run against one stored run on their per-second figures.
//
// The rows of the table, which way each metric gets worse and the
// figures the timeline carries per second are the registry's
// (report/result/metric): the package names no metric of its own.
//
// The package owns the statistics and the text, Markdown and JSON
// renderings of a comparison; the HTML rendering lives in report/html,
// which draws charts. It reads finished results only: it never runs load,
// touches the network or reads files.
package compare
