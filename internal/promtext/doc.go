// Package promtext writes and reads the Prometheus text exposition format
// (version 0.0.4) and the OpenMetrics 1.0 text format, the two formats
// vesload serves on its /metrics endpoints and reads from a target's.
//
// It exists so that vesload does not link the Prometheus client libraries
// and the protobuf runtime they bring: they made up a large share of the
// binary and, through the pages of it that their init code touches, of the
// generator's resident memory (docs/ARCHITECTURE.md, Packages).
//
// It owns only the syntax: which metrics exist and what they mean belongs
// to the packages that write or read them. The delimited protobuf
// exposition is written, with the protobuf wire encoding alone, because
// only it carries native histograms; it is never read: every endpoint
// vesload scrapes serves text.
package promtext
