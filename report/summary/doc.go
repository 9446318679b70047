// Package summary renders a result as the text a person reads at the end
// of a run: the verdict, the seed table, latency and its distribution,
// requests and errors, the generator's and the target's health, the
// HV-VES and delivery sections, and the gates, optionally coloured for a
// terminal (Options.Color), every text read from a file escaped.
//
// It must not read or write files, or decide a verdict (report/verdict
// does).
package summary
