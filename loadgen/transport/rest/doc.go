// Package rest is the VES REST transport: HTTP/1.1 over fasthttp's
// request writer and response reader, each sender on a connection of its
// own (the engine's pool bounds them; some are opened before the run's
// clock starts). It is the only package of vesload that imports fasthttp.
//
// It sends what the engine rendered and classifies what comes back
// (HTTP status, transport error class, the messageId of a VES error
// body); it never decides when a request is due and never records.
package rest
