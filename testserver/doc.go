// Package testserver is an emulator of ONAP's VES collector
// (dcaegen2-collectors-ves): the target of vesload's own tests, of
// `vesload serve`, and of a run without --url. It answers like the
// collector does, so that the load generator's error classification and
// reports can be tested against the real response shapes, and it models
// the collector's one known bottleneck, the downstream publisher's
// connection pool, so that saturation can be reproduced on a laptop.
//
// # Routes
//
//	POST /eventListener/{v1..v5,v7}             body {"event": {...}}
//	POST /eventListener/{v1..v5,v7}/eventBatch  body {"eventList": [...]}
//	GET  /healthcheck                           200 "I'm good" (text/plain)
//	GET  /                                      200 "Welcome to VESCollector"
//	GET  /stats                                 the emulator's Stats as JSON
//	GET  /metrics                               Prometheus text (own registry)
//
// /stats and /metrics are the emulator's own: they need no auth, get no
// latency and are not counted. Everything else is counted and delayed.
//
// # Answers
//
//	202 (200 in legacy mode)  "Successfully send event", Content-Type application/json
//	400 SVC0002  no event/eventList ("Incorrect JSON payload"; also any body that is not
//	             strict JSON with StrictJSON)
//	400 SVC0002  schema failure: "Bad Parameter (JSON does not conform to schema)"
//	400 SVC2000  stndDefinedFields.data does not conform to the 3GPP schema its
//	             schemaReference names, or the part after '#' names nothing in that file
//	400 SVC2004  schemaReference's URL is not in externalRepo/schema-map.json
//	400 SVC2006  stndDefined event without, or with an empty, stndDefinedNamespace
//	400 SVC0001  events of one request differ in domain (also: an empty eventList),
//	             or stndDefined events differ in stndDefinedNamespace
//	400 SVC2000  "No domain defined for stream id": the domain (stndDefined: the
//	             namespace) has no stream in Options.Streams (perf3gpp by default)
//	400          unsupported API version: "API version vN is not supported" (not JSON)
//	400          X-MinorVersion (spelled so) the API description does not list (2 on v7, 4 on v5,
//	             7 on v4, none on v1–v3): the plain text "INVALID_CUSTOM_HEADER"
//	400          any request but /healthcheck on the HTTP port (Options.HTTPAddr) of
//	             an HTTPS emulator with auth: "Operation not permitted" (plain text)
//	400          no body at all: Spring Boot's error page ("Bad Request")
//	500          a body org.json throws on (truncated, bad escape, a line break in a
//	             string, a top-level array, a duplicate key, ...): Spring Boot's error
//	             page ("Internal Server Error"), as the collector does not catch it
//	401 POL2000  missing or wrong basic auth (PolicyException), no Content-Type
//	404, 405     wrong path, wrong method: Spring Boot's JSON error page (405 sets Allow)
//	415          Content-Type missing or not application/json: Spring Boot's error page
//	413 SVC2000  body over MaxBodyBytes (default 2 MiB, the VES message limit); the
//	             connection is closed
//	500 SVC2000  publish failure in v7.2 mode, variables ["Internal Server Error","500"]
//	503 SVC2000  publish failure in legacy mode, variables ["Too Many Requests","429"]
//	             when the backend queue is full, ["Service Unavailable","503"] when injected
//
// Error bodies have the collector's shape,
// {"requestError":{"ServiceException":{"messageId":"SVC0002","text":"…"}}},
// with "variables" only when the collector sends some. Like the collector
// (whose error strings Spring negotiates), they are sent as
// text/plain;charset=UTF-8 unless the request's Accept names
// application/json.
//
// # Auth
//
// With Options.Auth, requests need HTTP basic auth; with AuthCost the
// password is kept as a BCrypt hash and every basic-auth request pays
// one verification, as in the collector's certBasicAuth mode. With
// ClientCAFile a verified client certificate is enough (no BCrypt);
// Stats.AuthBasic and Stats.AuthCertificate count the two ways in.
//
// # Validation
//
// Each request goes through the collector's steps in its order (see
// collector.go). The body is parsed as org.json 20220320 parses it
// (orgjson.go): lenient (trailing garbage, an extra closing brace,
// trailing commas, single-quoted or unquoted keys, bare words all pass on
// to validation) and throwing on what the collector then answers with a
// 500. With Options.SchemaDir, the whole body is validated against the
// collector's CommonEventFormat schema for the API version (27.2 for
// v1–v4, 28.4.1 for v5, 30.2.1_ONAP for v7) with the format checks of
// the collector's validator (an IPv4 octet may have leading zeros, an
// IPv6 address a zone), and the data of each stndDefined event with a
// schemaReference against the 3GPP OpenAPI schema that
// externalRepo/schema-map.json maps it to. The files are read and
// compiled once, on start; none ships with vesload. Without them the
// single-pass checker's built-in rules check the commonEventHeader only
// (required fields, types, the enumerations of CommonEventFormat_28.4.1
// for v1–v5 and 30.2.1_ONAP for v7), and the emulator says so on start.
// Then come the batch checks, and the routing of the first event's
// domain through Options.Streams. Options.NoValidate turns the schema
// checks off (the collector's collector.schema.checkflag=-1).
//
// # Backend model
//
// With PublishTime > 0 each valid request holds one of BackendPool
// downstream connections for PublishTime (a batch is one publish, as in
// the collector). When all are busy up to BackendQueue requests wait in
// FIFO order; the next one fails at once with the publish-failure answer
// and is counted in Stats.BackendRejected. Injected errors (ErrorRate) do
// not use the backend.
//
// # Duplicates
//
// Event IDs of valid requests are remembered as 64-bit hashes in a
// bounded set (Options.DuplicateWindow, default 2^20 IDs, at least the
// most recent half of them kept); an ID seen again counts in
// Stats.DuplicateEventIDs, whether or not the request was then accepted.
//
// This package must not depend on the load generator, and the emulator
// must stay cheap: it shares a 2-core machine with the generator at
// thousands of requests per second. Schemas are compiled once; a request
// costs one single-pass scan (syntax, batch checks, event ID hashes, and
// whether org.json would read the body as anything but its JSON), then,
// with schemas, one org.json-style parse into a document and one schema
// validation; a body the scan cannot vouch for is parsed first, as the
// collector does. BenchmarkHandle measures it: without schemas it
// allocates nothing.
package testserver
