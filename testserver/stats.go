package testserver

import "sync/atomic"

// Stats is a snapshot of the emulator's counters: what a load test checks
// on the target's side (did every request arrive, were ids unique, did
// the backend saturate). Requests to /stats and /metrics are not counted.
type Stats struct {
	// Requests counts every request to a collector route, including 404s.
	Requests int64 `json:"requests"`
	// EventRequests counts POSTs to /eventListener/...; each ends up in
	// Accepted or Rejected.
	EventRequests int64 `json:"event_requests"`
	// Accepted counts event requests answered 200/202.
	Accepted int64 `json:"accepted"`
	// Rejected counts event requests answered with any other status.
	Rejected int64 `json:"rejected"`
	// Invalid counts event requests refused by validation (400).
	Invalid int64 `json:"invalid"`
	// Events counts events in requests that passed validation, whether
	// publishing them then succeeded or not.
	Events int64 `json:"events"`
	// AcceptedEvents counts events in accepted requests.
	AcceptedEvents int64 `json:"accepted_events"`
	// DuplicateEventIDs counts valid events whose eventId was seen before
	// (within the duplicate window). Load tests send unique ids, so any
	// duplicate means a retry or a generator bug.
	DuplicateEventIDs int64 `json:"duplicate_event_ids"`
	// BackendRejected counts requests that failed because the backend's
	// pending-acquire queue was full.
	BackendRejected int64 `json:"backend_rejected"`
	// InjectedErrors counts publish failures injected by ErrorRate.
	InjectedErrors int64 `json:"injected_errors"`
	// PublishFailed counts accepted-and-valid requests whose events
	// Options.Publish refused (a stalled or failed downstream).
	PublishFailed int64 `json:"publish_failed,omitempty"`
	// AuthBasic counts requests that authenticated (or tried to) with
	// basic auth, each one a BCrypt verification when Options.AuthCost
	// is set; AuthCertificate counts those a client certificate let in.
	AuthBasic       int64 `json:"auth_basic"`
	AuthCertificate int64 `json:"auth_certificate"`
	// ByStatus counts responses by HTTP status.
	ByStatus map[int]int64 `json:"by_status"`
	// InFlight and MaxInFlight are event requests being handled now and
	// the most at any time since Start.
	InFlight    int64 `json:"in_flight"`
	MaxInFlight int64 `json:"max_in_flight"`
	// BackendInUse and BackendWaiting are the downstream connections held
	// and the requests waiting for one now.
	BackendInUse   int64 `json:"backend_in_use"`
	BackendWaiting int64 `json:"backend_waiting"`
	// ArrivalGaps is set when Options.RecordArrivals is.
	ArrivalGaps *ArrivalGaps `json:"arrival_gaps,omitempty"`
}

// maxStatus bounds the status codes counted individually.
const maxStatus = 600

// counters are the live, lock-free counters behind Stats.
type counters struct {
	requests, eventRequests, accepted, rejected, invalid atomic.Int64
	events, acceptedEvents, duplicates                   atomic.Int64
	backendRejected, injected, publishFailed             atomic.Int64
	authBasic, authCertificate                           atomic.Int64
	inFlight, maxInFlight                                atomic.Int64
	status                                               [maxStatus]atomic.Int64
}

// enter counts an event request starting and tracks the in-flight peak.
func (c *counters) enter() {
	n := c.inFlight.Add(1)
	for {
		m := c.maxInFlight.Load()
		if n <= m || c.maxInFlight.CompareAndSwap(m, n) {
			return
		}
	}
}

func (c *counters) leave() { c.inFlight.Add(-1) }

// answered counts one response with status code to a collector route.
func (c *counters) answered(code int, eventRoute bool, events int) {
	c.requests.Add(1)
	if code >= 0 && code < maxStatus {
		c.status[code].Add(1)
	}
	if !eventRoute {
		return
	}
	c.eventRequests.Add(1)
	if code == 200 || code == 202 {
		c.accepted.Add(1)
		c.acceptedEvents.Add(int64(events))
	} else {
		c.rejected.Add(1)
	}
}

// snapshot copies the counters; the copy is not atomic as a whole, which
// only matters while requests are in flight.
func (c *counters) snapshot() Stats {
	st := Stats{
		Requests:          c.requests.Load(),
		EventRequests:     c.eventRequests.Load(),
		Accepted:          c.accepted.Load(),
		Rejected:          c.rejected.Load(),
		Invalid:           c.invalid.Load(),
		Events:            c.events.Load(),
		AcceptedEvents:    c.acceptedEvents.Load(),
		DuplicateEventIDs: c.duplicates.Load(),
		BackendRejected:   c.backendRejected.Load(),
		InjectedErrors:    c.injected.Load(),
		PublishFailed:     c.publishFailed.Load(),
		AuthBasic:         c.authBasic.Load(),
		AuthCertificate:   c.authCertificate.Load(),
		InFlight:          c.inFlight.Load(),
		MaxInFlight:       c.maxInFlight.Load(),
		ByStatus:          map[int]int64{},
	}
	for code := range c.status {
		if n := c.status[code].Load(); n > 0 {
			st.ByStatus[code] = n
		}
	}
	return st
}
