// Package transport is the seam between the engine and a protocol
// (docs/ARCHITECTURE.md, "Transport"): how one due request is sent and
// its outcome known. The engine renders a request's payload and hands it
// to a Sender; the Sender reports an Outcome. The engine never knows the
// wire protocol, and a transport never knows the schedule, the pool's
// tokens or the result document.
//
// Package rest is the VES REST transport (HTTP over fasthttp, the only
// package that imports it). Another protocol, such as HV-VES frames over
// TCP, is one more package implementing Transport.
package transport

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Transport opens and owns the connections to one target.
type Transport interface {
	// Preflight connects to the target once, so that a wrong address
	// fails the run before it starts.
	Preflight(ctx context.Context) error
	// Warm opens n connections before the run's clock starts, so that
	// the first second measures the target, not the set-up.
	Warm(n int)
	// NewSender returns the sender of one worker and a function that
	// releases it. The engine runs as many workers as the pool has
	// connections and calls each sender from its worker only.
	NewSender() (Sender, func())
	// Close shuts the connections; call it once every sender is done.
	Close()
}

// FailureLogger is a Transport that logs the first failure of each error
// class (-v) once told where. A transport built before the run's failure
// log is known (HV-VES's is, with its producers) is told by the engine:
// engine.New hands it Config.LogFailure.
type FailureLogger interface {
	LogFailures(log func(string))
}

// Sender sends requests one at a time and waits for each outcome.
type Sender interface {
	// Send sends r and fills o. It must not keep r.Body, which is reused,
	// and in steady state it must not allocate.
	Send(r *Request, o *Outcome)
}

// Request is one due request as a transport sees it.
type Request struct {
	Seq  int64     // the request's number in the run
	Due  time.Time // when it was due
	Kind int       // which request of the mix (0 without a mix)
	Body []byte    // the rendered payload
}

// Outcome is what became of one request.
type Outcome struct {
	Class     Class
	Code      int32  // protocol status (HTTP status), 0 when there was none
	MessageID string // the messageId of a VES error body
	// BytesSent and BytesRecv are the bytes of the request and of its
	// answer on the wire, headers included, as JMeter's sentBytes and
	// bytes count them (0 for what never reached a connection).
	BytesSent int64
	BytesRecv int64
	// Written is when the request was handed to the connection and Done
	// when its outcome was known: the service time is Done - Written.
	Written, Done time.Time
	// Connect is how long opening the request's connection took (TLS
	// handshake included) when the request opened it; 0 on a reused
	// connection. It is part of Done - Written.
	Connect time.Duration
	// FirstByte is when the first byte of the answer arrived; zero when
	// none did. FirstByte - Written is JMeter's Latency.
	FirstByte time.Time
}

// Header is one request header.
type Header struct {
	Name, Value string
}

// Class is an error class of the taxonomy (docs/ARCHITECTURE.md, "Error
// taxonomy"). Protocol statuses are kept apart as codes, so a class is a
// small array index on the hot path.
type Class uint8

// The classes of the taxonomy.
const (
	OK Class = iota
	HTTP
	Timeout
	Refused
	Reset
	DNS
	TLS
	PoolExhausted
	Aborted
	TooLarge  // a response body over the client's limit
	BadAnswer // a response that is not HTTP (status line, headers)
	Other
	// Disconnected is a due request whose connection was down at its due
	// time (an HV-VES producer's, dropped or not re-made): like
	// PoolExhausted, it failed without being sent.
	Disconnected
	NumClasses
)

var classNames = [NumClasses]string{
	OK:            result.OutcomeOK,
	HTTP:          "http",
	Timeout:       result.ClassTimeout,
	Refused:       result.ClassConnRefused,
	Reset:         result.ClassConnReset,
	DNS:           result.ClassDNS,
	TLS:           result.ClassTLS,
	PoolExhausted: result.ClassPoolExhausted,
	Aborted:       result.ClassAborted,
	TooLarge:      result.ClassTooLarge,
	BadAnswer:     result.ClassBadResponse,
	Other:         result.ClassOther,
	Disconnected:  result.ClassDisconnected,
}

// NeverSent reports whether a request of class c failed without reaching
// the wire (pool_exhausted, disconnected): the engine counts it as not
// sent, with no latency, as the accounting identity wants
// (docs/ARCHITECTURE.md, "Accounting").
func (c Class) NeverSent() bool { return c == PoolExhausted || c == Disconnected }

// httpNames caches "http_<code>" so that outcome names are not built per
// request. It is built on first use, not at start-up: subcommands that
// send nothing never pay for it.
var httpNames = sync.OnceValue(func() *[600]string {
	var names [600]string
	for c := range names {
		names[c] = result.HTTPClassPrefix + strconv.Itoa(c)
	}
	return &names
})

// Name is the error key of the result document for class c and status
// code ("ok", "timeout", "http_503", …). It does not allocate for the
// statuses HTTP defines.
func (c Class) Name(code int) string {
	if c == HTTP {
		if names := httpNames(); code >= 0 && code < len(names) {
			return names[code]
		}
		return result.HTTPClassPrefix + strconv.Itoa(code)
	}
	if c >= NumClasses {
		return classNames[Other]
	}
	return classNames[c]
}
