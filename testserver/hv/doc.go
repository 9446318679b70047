// Package hv is an HV-VES collector emulator: a TCP (or TLS) listener
// that reads WTP frames carrying protobuf VesEvents and behaves as ONAP's
// high-volume collector does towards its clients. It never answers a
// message; it disconnects a client on a wrong frame marker or a payload
// over the limit, and on the errors the collector counts as "unexpected"
// (a negative length, a travel time its timer cannot hold), skips (and counts) frames of another version or payload
// type, undecodable protobuf, headers failing the collector's validation
// and domains without a route, and closes idle connections.
//
// It counts what it received per client, duplicate eventIds and the
// travel time from each event's lastEpochMicrosec, and exposes them as
// Stats, as JSON at /stats and under the collector's metric names at
// /metrics. A callback per accepted message lets a publisher (Kafka) be
// hooked in. It generates no load; see docs/ARCHITECTURE.md.
package hv
