// Package seed lays out the tables ONAP's performance pages publish for
// each collector build, VES REST's (Avg, Max, p50, p95, p99, Error rate %,
// Max CPU %, and the processing time with delivery figures) and HV-VES's,
// so that every rendering of a run (the summary, Markdown, HTML) prints
// the same row to the digit and vesload's rows sit beside the pages' old
// JMeter rows.
//
// It must not write anything: the renderings lay the columns and rows out.
package seed
