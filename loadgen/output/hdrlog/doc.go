// Package hdrlog encodes a run's per-second latencies as the standard
// HdrHistogram interval log, for the log a run streams (--hdr-log) and
// HdrHistogram's own processors and plotters.
//
// It must not open files or know the engine.
package hdrlog
