package ves

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Defaults for the header names when EventOptions leaves them empty.
const (
	DefaultSourceName          = "vesload-nf01"
	DefaultReportingEntityName = "vesload"
)

// Limits that catch typos (an extra zero) before they become a run that
// cannot work.
const (
	MaxSize  = 64 << 20 // bytes per body
	MaxBatch = 100_000  // events per body
)

// Header versions sent by every built-in event: the newest values the
// collector's v7 schema (CommonEventFormat_30.2.1_ONAP) enumerates.
const (
	headerVersion           = "4.1"
	vesEventListenerVersion = "7.2.1"
)

// Wrappers of a single event and of a batch.
const (
	singleOpen  = `{"event":`
	singleClose = `}`
	batchOpen   = `{"eventList":[`
	batchClose  = `]}`
)

// EventOptions configure NewEvent.
type EventOptions struct {
	// RunID prefixes every eventId ("<RunID>-<sequence>"), which keeps ids
	// unique across runs against the same collector; a random ID is made
	// when empty. Letters, digits and . _ : - only.
	RunID string
	// Size pads each body to this many bytes (e.g. 8192 for the
	// high-volume producer tests); 0 sends events at their natural size.
	// Padding goes into a hashMap member or free-text string the schema
	// allows, so padded events stay valid.
	Size int
	// Batch > 1 sends {"eventList":[...]} with Batch events per request;
	// request seq carries events seq*Batch … seq*Batch+Batch-1. 0 or 1
	// sends {"event":{...}}.
	Batch int
	// SourceName and ReportingEntityName fill the header fields of the same
	// names (DefaultSourceName and DefaultReportingEntityName when empty).
	SourceName          string
	ReportingEntityName string
}

// Event renders built-in VES 7 events of one domain. It is immutable and
// safe for concurrent use. Each event's eventId is "<RunID>-<n>" and its
// sequence n, where n is the event's index in the run, and both epoch
// fields are the request's due time in microseconds.
type Event struct {
	domain string
	runID  string
	batch  int
	// head renders one event up to its padding point, tail closes it.
	head program
	tail []byte
	// pad holds padding bytes; nil when Size is 0.
	pad []byte
	// targets[i] is the padded length of the i-th event of a body.
	targets []int
}

// NewEvent builds the generator for domain (one of Domains, any case).
func NewEvent(domain string, opts EventOptions) (*Event, error) {
	spec, ok := lookupDomain(domain)
	if !ok {
		return nil, fmt.Errorf("unknown VES domain %q (known: %s)", domain, strings.Join(Domains(), ", "))
	}
	if opts.Batch < 0 || opts.Batch > MaxBatch {
		return nil, fmt.Errorf("%s event: batch %d out of range 0…%d", spec.name, opts.Batch, MaxBatch)
	}
	if opts.Size < 0 || opts.Size > MaxSize {
		return nil, fmt.Errorf("%s event: size %d out of range 0…%d", spec.name, opts.Size, MaxSize)
	}
	runID, err := resolveRunID(opts.RunID)
	if err != nil {
		return nil, fmt.Errorf("%s event: %w", spec.name, err)
	}
	e := &Event{domain: spec.name, runID: runID, batch: max(1, opts.Batch)}
	padded := opts.Size > 0
	src := eventSource(spec, padded)
	vars := map[string]string{
		"SOURCE_NAME":           jsonString(cmp.Or(opts.SourceName, DefaultSourceName)),
		"REPORTING_ENTITY_NAME": jsonString(cmp.Or(opts.ReportingEntityName, DefaultReportingEntityName)),
	}
	segs, err := parse([]byte(src), parseEnv{runID: runID, vars: vars})
	if err != nil {
		return nil, fmt.Errorf("%s event: compile built-in body: %w", spec.name, err)
	}
	e.head = program{segs: merged(segs), key: runKey(runID)}
	e.tail = []byte(spec.closing)
	e.targets = make([]int, e.batch)
	if padded {
		e.tail = []byte(spec.padClose + spec.closing)
		e.pad = padding(opts.Size)
		e.targets = shares(opts.Size, e.batch)
	}
	if err := e.check(opts.Size); err != nil {
		return nil, err
	}
	return e, nil
}

// check renders a sample body: it must be valid JSON and, when padded,
// exactly the requested size (else Size is below the natural size).
func (e *Event) check(size int) error {
	sample := e.AppendBody(nil, 0, sampleDue())
	if !json.Valid(sample) {
		return fmt.Errorf("%s event: built-in body is not valid JSON", e.domain)
	}
	if size > 0 && len(sample) != size {
		return fmt.Errorf("%s event: size %d is below the natural size %d of a body of %d event(s); use 0 or at least %d",
			e.domain, size, len(sample), e.batch, len(sample))
	}
	return nil
}

// eventSource assembles the template text of one event up to its padding
// point. Header names come in as variables so that they are inserted
// escaped and never parsed as placeholders.
func eventSource(spec domainSpec, padded bool) string {
	var b strings.Builder
	b.WriteString(`{"commonEventHeader":{"version":"` + headerVersion + `","vesEventListenerVersion":"` + vesEventListenerVersion + `",`)
	b.WriteString(`"domain":"` + spec.name + `","eventName":"` + spec.eventName + `",`)
	b.WriteString(`"eventId":"{{.EventID}}","sequence":{{.Seq}},"priority":"` + spec.priority + `",`)
	b.WriteString(`"reportingEntityName":${REPORTING_ENTITY_NAME},"sourceName":${SOURCE_NAME},`)
	b.WriteString(`"startEpochMicrosec":{{.EpochMicros}},"lastEpochMicrosec":{{.EpochMicros}}`)
	b.WriteString(spec.header)
	b.WriteString(`},`)
	b.WriteString(spec.body)
	if padded {
		b.WriteString(spec.padOpen)
	}
	return b.String()
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil { // a string always marshals; keep the zero value safe anyway
		return `""`
	}
	return string(b)
}

// padding returns n bytes of filler that needs no JSON escaping. A varied
// pattern keeps the bytes from compressing to nothing on the wire.
func padding(n int) []byte {
	const pattern = "abcdefghijklmnopqrstuvwxyz0123456789"
	pad := make([]byte, n)
	for i := range pad {
		pad[i] = pattern[i%len(pattern)]
	}
	return pad
}

// shares splits a body size among the events of a body, after the bytes
// of the wrapper and the commas between events.
func shares(size, batch int) []int {
	rest := size - len(singleOpen) - len(singleClose)
	if batch > 1 {
		rest = size - len(batchOpen) - len(batchClose) - (batch - 1)
	}
	targets := make([]int, batch)
	for i := range targets {
		targets[i] = rest / batch
		if i < rest%batch {
			targets[i]++
		}
	}
	return targets
}

// AppendBody appends the body of request seq due at due to dst. A batch
// body carries events seq*Batch … seq*Batch+Batch-1.
func (e *Event) AppendBody(dst []byte, seq uint64, due time.Time) []byte {
	if e.batch == 1 {
		dst = append(dst, singleOpen...)
		dst = e.appendEvent(dst, seq, due, e.targets[0])
		return append(dst, singleClose...)
	}
	dst = append(dst, batchOpen...)
	first := seq * uint64(e.batch)
	for i, target := range e.targets {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = e.appendEvent(dst, first+uint64(i), due, target)
	}
	return append(dst, batchClose...)
}

// appendEvent renders event n and pads it to target bytes when padding is
// on. Digits of the sequence number and timestamps vary in width, so the
// fill is computed per event: the body stays exactly at the target as
// long as the event's natural size fits in it.
func (e *Event) appendEvent(dst []byte, n uint64, due time.Time, target int) []byte {
	start := len(dst)
	dst = e.head.appendTo(dst, n, due)
	if e.pad != nil {
		fill := target - (len(dst) - start) - len(e.tail)
		dst = append(dst, e.pad[:max(0, min(fill, len(e.pad)))]...)
	}
	return append(dst, e.tail...)
}

// Domain returns the VES domain of the events, as spelled in the header.
func (e *Event) Domain() string { return e.domain }

// Batch returns the number of events per body (1 for a single event), so
// the engine can pick the eventBatch endpoint and count events.
func (e *Event) Batch() int { return e.batch }

// RunID returns the prefix of the eventIds, to find a run's events in the
// collector's output.
func (e *Event) RunID() string { return e.runID }
