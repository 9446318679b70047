// Package resultfile keeps the result document on disk: it encodes and
// writes results atomically (a crash never leaves half a document), reads
// them back checked against the v1 schema with the line and column of a
// fault, finds them in a stream of pod logs, checks that a path can be
// written before a run, and opens the streams a run writes as it goes
// (devices, pipes and symbolic links included).
//
// It must not render, run load or import anything of vesload but
// report/result.
package resultfile
