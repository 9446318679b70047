// Package trend finds where performance changed over a history of runs
// of one scenario (nightly builds, or one run per merge), and holds the
// newest change to regression gates: the morning questions of a
// performance CI ("which build made p99 worse, by how much, and is that
// real?", "did the fix hold?", "is tonight's run the start of a
// regression?") answered from the result documents vesload already
// writes.
//
// It orders the runs by a label in natural version order (1.9.1 before
// 1.10.0) or by start time, refuses runs that were not asked the same
// thing (as report/compare does), reads each run's figures under the
// threshold grammar's names (report/threshold; the series shown when
// none is asked for and which way each gets worse are the registry's,
// report/result/metric), and finds the change
// points of every metric with E-Divisive means and a permutation test
// (Detector; docs/ARCHITECTURE.md says why). Each change carries the
// first build after it, the means before and after, the change in
// absolute and relative terms, its p-value and whether it is better or
// worse for that metric.
//
// Gates use report/compare's grammar ("p99<+10%"): the newest segment of
// the history is judged against the one before it. The package owns the
// text, Markdown, JSON and JUnit renderings; report/html draws the page.
// It reads finished results only: it never runs load, touches the
// network or reads files.
package trend
