package testserver

import (
	"hash/maphash"
)

// outcome is what the structural check of a request body decided. Each
// value maps to one of the collector's answers (see responses.go).
type outcome uint8

const (
	outcomeOK               outcome = iota
	outcomeBadJSON                  // 400 SVC0002 "Incorrect JSON payload": syntax, not an object, no event/eventList
	outcomeSchema                   // 400 SVC0002 "Bad Parameter (JSON does not conform to schema)"
	outcomeMissingNamespace         // 400 SVC2006: stndDefined event without stndDefinedNamespace
	outcomeEmptyNamespace           // 400 SVC2006: stndDefined event with an empty stndDefinedNamespace
	outcomeMixedDomains             // 400 SVC0001: events of a request differ in domain (or there are none)
	outcomeMixedNamespaces          // 400 SVC0001: stndDefined events differ in stndDefinedNamespace

	// Answers of the request path beyond the single-pass checker.
	outcomeEmptyBody      // 400 Spring error page: no body at all (@RequestBody is required)
	outcomeParseCrash     // 500 Spring error page: org.json threw (or another uncaught exception)
	outcomeStndInvalid    // 400 SVC2000: stndDefinedFields.data does not conform to its 3GPP schema
	outcomeNoLocalSchema  // 400 SVC2004: schemaReference's URL is not in the schema map
	outcomeBadInternalRef // 400 SVC2000: schemaReference's part after '#' names nothing in the file
	outcomeUnrouted       // 400 SVC2000: no stream is configured for the domain (or namespace)
)

// verdict is the result of checking one request body. problem and field
// say why a body was refused, for logs and tests; both are static strings
// so that checking allocates nothing.
type verdict struct {
	outcome outcome
	events  int
	problem string
	field   string
}

// String describes the verdict for logs.
func (v verdict) String() string {
	if v.outcome == outcomeOK {
		return "ok"
	}
	if v.field != "" {
		return v.field + ": " + v.problem
	}
	return v.problem
}

// checker validates request bodies. One checker is used by one request at
// a time (they are pooled); it keeps scratch space between uses.
type checker struct {
	sc      scanner
	rules   *ruleset
	enforce bool // check header fields against rules (Options.NoValidate off)
	seed    maphash.Seed
	ids     []uint64 // maphash of the eventId of every event, in order
	scratch []byte
	names   keyNames // the keys of parsed documents (see parseOrgJSONSized)

	// Request-wide state for the collector's batch and stndDefined checks.
	v            verdict
	domainHash   uint64
	nsHash       uint64
	allStnd      bool
	mixedDomains bool
	mixedNS      bool
	missingNS    bool
	emptyNS      bool

	// What the request's stream is read from: the first event's domain
	// and stndDefinedNamespace as raw slices of the body (nil: absent or
	// not a string), and whether the body was one JSON object.
	object bool
	first  streamText
}

// streamText is the raw text of the first event's routing fields.
type streamText struct {
	domain, ns       []byte
	domainEsc, nsEsc bool
}

// bodyKey is the key that holds a request's events: "eventList" for the
// batch endpoint, else "event".
func bodyKey(batch bool) string {
	if batch {
		return "eventList"
	}
	return "event"
}

// check validates body for the endpoint kind (batch: eventList, else
// event). Event ID hashes of all events are left in c.ids.
func (c *checker) check(body []byte, batch bool) verdict {
	c.sc.reset(body)
	c.ids = c.ids[:0]
	c.v = verdict{}
	c.allStnd, c.mixedDomains, c.mixedNS, c.missingNS, c.emptyNS = true, false, false, false, false
	c.object, c.first = false, streamText{}
	want := bodyKey(batch)
	found := false
	if c.sc.peek() != '{' {
		c.sc.skip()
		c.sc.end() // for the syntax verdict only: the answer is the same
		return verdict{outcome: outcomeBadJSON, problem: "body is not a JSON object"}
	}
	c.object = true
	c.sc.open('{')
	for first := true; c.sc.next('}', first); first = false {
		if !c.keyIs(want) {
			c.sc.skip()
			continue
		}
		found = true
		if batch {
			c.eventList()
		} else {
			c.event()
		}
	}
	return c.decide(found, want)
}

// decide turns what the scan saw into a verdict, in the order the
// collector checks: JSON syntax, event/eventList presence, schema, then
// batch consistency and stndDefined namespaces.
func (c *checker) decide(found bool, want string) verdict {
	if !c.sc.end() {
		return verdict{outcome: outcomeBadJSON, problem: "invalid JSON"}
	}
	if !found {
		return verdict{outcome: outcomeBadJSON, problem: "missing " + want}
	}
	n := c.v.events
	// The collector's batch check: one domain for all events; when all
	// are stndDefined, a namespace on each and the same one. An empty
	// namespace is refused later, when the event is routed.
	switch {
	case c.v.outcome != outcomeOK:
		return c.v
	case n == 0:
		return verdict{outcome: outcomeMixedDomains, problem: "no events"}
	case c.mixedDomains:
		return verdict{outcome: outcomeMixedDomains, events: n, field: "commonEventHeader.domain", problem: "differs between events"}
	case c.allStnd && c.missingNS:
		return verdict{outcome: outcomeMissingNamespace, events: n, field: "commonEventHeader.stndDefinedNamespace", problem: "missing"}
	case c.allStnd && c.mixedNS:
		return verdict{outcome: outcomeMixedNamespaces, events: n, field: "commonEventHeader.stndDefinedNamespace", problem: "differs between events"}
	case c.allStnd && c.emptyNS:
		return verdict{outcome: outcomeEmptyNamespace, events: n, field: "commonEventHeader.stndDefinedNamespace", problem: "empty"}
	}
	return verdict{outcome: outcomeOK, events: n}
}

// schemaFail records the first schema problem; scanning goes on so that
// a later syntax error still wins, as it does in the collector.
func (c *checker) schemaFail(field, problem string) {
	if c.v.outcome == outcomeOK {
		c.v.outcome, c.v.field, c.v.problem = outcomeSchema, field, problem
	}
}

// keyIs reads an object key and reports whether it equals name.
func (c *checker) keyIs(name string) bool {
	return string(c.keyText()) == name
}

// keyText reads an object key and returns its decoded text, which is only
// valid until the next call.
func (c *checker) keyText() []byte {
	raw, esc := c.sc.key()
	if esc {
		c.scratch = unescape(c.scratch, raw)
		return c.scratch
	}
	return raw
}

func (c *checker) eventList() {
	if c.sc.peek() != '[' {
		c.schemaFail("eventList", "not an array")
		c.sc.skip()
		return
	}
	c.sc.open('[')
	for first := true; c.sc.next(']', first); first = false {
		c.event()
	}
}

// event checks one event object.
func (c *checker) event() {
	if c.sc.peek() != '{' {
		c.schemaFail("event", "not an object")
		c.sc.skip()
		return
	}
	c.v.events++
	hasHeader := false
	var e eventHeader
	c.sc.open('{')
	for first := true; c.sc.next('}', first); first = false {
		k := c.keyText()
		if string(k) == "commonEventHeader" {
			hasHeader = true
			c.header(&e)
			continue
		}
		if c.enforce && c.rules.eventKeys != nil {
			if _, ok := c.rules.eventKeys[string(k)]; !ok {
				c.schemaFail("event", "additional property not allowed")
			}
		}
		c.sc.skip()
	}
	if c.enforce && !hasHeader {
		c.schemaFail("event.commonEventHeader", "missing")
	}
	c.endEvent(&e)
}

// eventHeader is what the checker keeps of one commonEventHeader.
type eventHeader struct {
	domain     uint64
	stnd       bool
	hasID      bool
	id         uint64
	hasNS      bool
	emptyNS    bool
	ns         uint64
	seenFields uint32
}

// endEvent folds one event into the request-wide state.
func (c *checker) endEvent(e *eventHeader) {
	if e.hasID {
		c.ids = append(c.ids, e.id)
	}
	if c.v.events == 1 {
		c.domainHash, c.nsHash = e.domain, e.ns
	} else {
		c.mixedDomains = c.mixedDomains || e.domain != c.domainHash
		c.mixedNS = c.mixedNS || e.ns != c.nsHash
	}
	c.allStnd = c.allStnd && e.stnd
	if e.stnd {
		c.missingNS = c.missingNS || !e.hasNS
		c.emptyNS = c.emptyNS || (e.hasNS && e.emptyNS)
	}
}

// header checks a commonEventHeader and fills e.
func (c *checker) header(e *eventHeader) {
	if c.sc.peek() != '{' {
		c.schemaFail("commonEventHeader", "not an object")
		c.sc.skip()
		return
	}
	c.sc.open('{')
	for first := true; c.sc.next('}', first); first = false {
		k := c.keyText()
		f := c.rules.header[string(k)]
		role := roleOf(k)
		if f == nil && c.enforce && c.rules.closedHeader {
			c.schemaFail("commonEventHeader", "additional property not allowed")
		}
		c.headerValue(e, f, role)
	}
	if c.enforce && e.seenFields&c.rules.requiredMask != c.rules.requiredMask {
		c.schemaFail("commonEventHeader", "missing a required field")
	}
}

// fieldRole marks the header fields the emulator itself needs.
type fieldRole uint8

const (
	roleNone fieldRole = iota
	roleDomain
	roleEventID
	roleNamespace
)

func roleOf(k []byte) fieldRole {
	switch string(k) {
	case "domain":
		return roleDomain
	case "eventId":
		return roleEventID
	case "stndDefinedNamespace":
		return roleNamespace
	}
	return roleNone
}

// headerValue reads one header value, checks it against f (nil: unknown
// field) and records what role asks for.
func (c *checker) headerValue(e *eventHeader, f *headerField, role fieldRole) {
	ch := c.sc.peek()
	if ch != '"' {
		kind, ok := c.nonString(ch)
		if !c.sc.bad && c.enforce && f != nil {
			if !ok || !kindMatches(f.kind, kind) {
				c.schemaFail(f.path, "wrong type")
			} else {
				e.seenFields |= f.bit
			}
		}
		return
	}
	raw, esc := c.sc.str()
	if c.sc.bad {
		return
	}
	text := raw
	if esc {
		c.scratch = unescape(c.scratch, raw)
		text = c.scratch
	}
	if c.enforce && f != nil {
		switch {
		case f.kind != kindString:
			c.schemaFail(f.path, "wrong type")
		case f.enum != nil && !inEnum(f.enum, text):
			c.schemaFail(f.path, "not one of the allowed values")
		default:
			e.seenFields |= f.bit
		}
	}
	if c.v.events == 1 {
		switch role {
		case roleDomain:
			c.first.domain, c.first.domainEsc = raw, esc
		case roleNamespace:
			c.first.ns, c.first.nsEsc = raw, esc
		}
	}
	switch role {
	case roleDomain:
		e.domain = maphash.Bytes(c.seed, text)
		e.stnd = string(text) == "stndDefined"
	case roleEventID:
		e.hasID, e.id = true, maphash.Bytes(c.seed, raw)
	case roleNamespace:
		e.hasNS, e.emptyNS, e.ns = true, len(text) == 0, maphash.Bytes(c.seed, text)
	}
}

// nonString consumes a value that is not a string and returns its kind;
// ok is false for arrays, booleans and null, which no header field takes.
func (c *checker) nonString(ch byte) (kind fieldKind, ok bool) {
	switch ch {
	case '{':
		c.sc.skip()
		return kindObject, true
	case '[', 't', 'f', 'n':
		c.sc.skip()
		return 0, false
	}
	_, integer := c.sc.num()
	if integer {
		return kindInteger, true
	}
	return kindNumber, true
}

// kindMatches says whether a value of kind got satisfies a field that
// wants kind want (an integer is also a number).
func kindMatches(want, got fieldKind) bool {
	return want == got || (want == kindNumber && got == kindInteger)
}

func inEnum(enum []string, v []byte) bool {
	for _, e := range enum {
		if e == string(v) {
			return true
		}
	}
	return false
}

// plainJSON reports whether the last body checked is one JSON object that
// encoding/json accepts and that org.json parses to the same document
// (see scanner): then the collector's parse cannot fail, and the checker
// saw what the collector sees.
func (c *checker) plainJSON() bool {
	return c.object && !c.sc.bad && !c.sc.orgUnsure
}

// stream is the collector's stream id of the last body checked (see
// streamOf), valid while the body is; ok is false when a routing field
// has escapes, which only the parsed document decodes as the collector
// does. Meaningful only for a body of plainJSON whose verdict is OK, in
// which every event is an object.
func (c *checker) stream() (id []byte, ok bool) {
	f := c.first
	if f.domainEsc || (string(f.domain) == "stndDefined" && f.nsEsc) {
		return nil, false
	}
	if string(f.domain) == "stndDefined" {
		return f.ns, true
	}
	return f.domain, true
}
