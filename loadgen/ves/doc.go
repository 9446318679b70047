// Package ves renders the bodies of VES 7 requests: built-in events for each
// VES domain (fault, measurement, heartbeat, notification, pnfRegistration,
// stndDefined), single or batched in an eventList and optionally padded to a
// target size, and user templates written with native {{.Name}}
// placeholders or the JMeter functions found in ONAP's test plans (see
// TEMPLATES.md).
//
// Both Event and Template satisfy the engine's body interface
//
//	AppendBody(dst []byte, seq uint64, due time.Time) []byte
//
// without importing the engine. Everything is parsed and laid out once, at
// construction, as a list of static byte segments and typed fields; a
// render only appends those segments and formats integers, so it is safe
// for concurrent use, never parses, and allocates nothing once dst has
// grown to the body size. Per-request values that look random (UUIDs,
// Random placeholders, measurement counters) are derived from the run ID
// and the sequence number with splitmix64, so a body is a pure function of
// (run ID, seq, due): runs are reproducible and tests need no seed.
//
// The package owns body content only. It must not do I/O at render time,
// know about HTTP, URLs or authentication, or keep any mutable state: the
// engine decides when a request is due and where it goes.
package ves
