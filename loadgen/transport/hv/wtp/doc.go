// Package wtp owns HV-VES's wire format: the Wire Transfer Protocol frame
// (a 12-byte big-endian header in front of each payload) and the protobuf
// VesEvent it carries, whose eventFields hold a Perf3gppFields /
// MeasDataCollection payload.
//
// The encoder builds one frame per message into a buffer it reuses, so a
// producer's per-message path allocates nothing; the decoder reads frames
// from a byte stream (partial frames buffered) and the header fields of a
// VesEvent, for the HV-VES emulator. Field numbers are those of ONAP's
// VesEvent.proto, Perf3gppFields.proto and MeasDataCollection.proto; the
// tests check them against those files parsed at test time.
//
// It knows nothing of connections, schedules or results: see
// docs/ARCHITECTURE.md for where it sits.
package wtp
