package ves

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/inputfile"
)

// TemplateOptions configure CompileTemplate.
type TemplateOptions struct {
	// RunID prefixes {{.EventID}} and seeds {{.UUID}} and Random values; a
	// random one is made when empty. Give the same ID to reproduce a run's
	// bodies exactly.
	RunID string
	// Vars binds JMeter-style ${NAME} references at compile time. Values are
	// inserted verbatim (not JSON-escaped), as JMeter does, so a string
	// value belongs inside quotes in the template.
	Vars map[string]string
	// AllowInvalidJSON skips the compile-time check that a rendered body is
	// valid JSON, for runs that deliberately send malformed bodies (to
	// exercise the collector's error answers). The problem the check would
	// have reported stays available as Template.NotJSON, for a warning.
	AllowInvalidJSON bool
	// Data binds ${NAME} of its columns per request: request seq takes row
	// seq mod rows (values verbatim, as Vars). A column wins over a Vars
	// entry of the same name. Every row's body is checked at compile time.
	Data *Data
	// DataPerWorker gives each worker (connection) one data row, worker i
	// row i mod rows, instead of each request the next row.
	DataPerWorker bool
}

// Template is a compiled body template (syntax in TEMPLATES.md). It is
// immutable and safe for concurrent use; AppendBody only copies literals
// and formats numbers.
type Template struct {
	prog      program
	runID     string
	batch     bool
	perWorker bool   // data rows go to workers, not requests
	notJSON   string // why the sample body is not JSON (AllowInvalidJSON only)
}

// sampleDue is the due time of the render that checks a compiled body.
func sampleDue() time.Time { return time.Unix(1_700_000_000, 123_456_000) }

// CompileTemplate parses src once into segments, so that rendering never
// parses. Everything outside placeholders is sent as written.
//
// Native placeholders (seq is the request's 0-based sequence number, due
// its due time):
//
//	{{.Seq}}              seq
//	{{.Counter}}          seq+1
//	{{.EventID}}          RunID-seq, e.g. 3f9a2c1b7d4e8a05-41
//	{{.RunID}}            the run ID
//	{{.UUID}}             a version 4 UUID, unique per request and placeholder
//	{{.EpochMicros}}      due in microseconds since the epoch
//	{{.EpochMillis}}      due in milliseconds
//	{{.EpochSeconds}}     due in seconds
//	{{.EventTime}}        due as 2006-01-02T15:04:05.000000Z (UTC)
//	{{.Random MIN MAX}}   an integer in [MIN, MAX]
//	{{"text"}}            text itself: the way to write a literal {{ or ${
//
// JMeter references, as found in ONAP's plans:
//
//	${__time()} ${__time(,)} ${__time}     epoch milliseconds
//	${__time(/1000,)}                      epoch seconds
//	${__UUID()} ${__UUID}                  as {{.UUID}}
//	${__counter(,)} ${__counter(TRUE,)} ${__counter(FALSE,NAME)}   seq+1
//	${__Random(MIN,MAX)} ${__Random(MIN,MAX,NAME)}                 as {{.Random MIN MAX}}
//	${__threadNum}                         1
//	${NAME}                                opts.Vars["NAME"], inserted verbatim
//
// UUIDs and Random values are not drawn from a global generator: they are
// derived from the run ID, the placeholder and seq with splitmix64, so the
// same run ID reproduces the same bodies. Unless opts.AllowInvalidJSON is
// set, a sample body is rendered and must be valid JSON. Errors are
// *TemplateError values giving the line and column of the placeholder or
// JSON syntax error at fault.
func CompileTemplate(src []byte, opts TemplateOptions) (*Template, error) {
	runID, err := resolveRunID(opts.RunID)
	if err != nil {
		return nil, fmt.Errorf("compile template: %w", err)
	}
	segs, err := parse(src, parseEnv{runID: runID, vars: opts.Vars, data: opts.Data})
	if err != nil {
		var pe *posError
		if errors.As(err, &pe) {
			return nil, templateError(src, pe.off, pe.msg)
		}
		return nil, fmt.Errorf("compile template: %w", err)
	}
	t := &Template{prog: program{segs: segs, key: runKey(runID), rows: dataRows(segs, opts.Data)}, runID: runID,
		perWorker: opts.DataPerWorker}
	if err := t.checkRows(src, opts); err != nil {
		return nil, err
	}
	sample, starts := t.prog.traceRender(0, sampleDue())
	if off, msg, bad := jsonSyntaxError(sample); bad {
		te := templateError(src, sourceOffset(segs, starts, off, len(sample), len(src)), "rendered body is not valid JSON: "+msg)
		te.NotJSON = true
		if !opts.AllowInvalidJSON {
			return nil, te
		}
		t.notJSON = te.Error()
		t.batch = bytes.Contains(sample, []byte(`"eventList"`))
	} else {
		t.batch = hasTopLevelKey(sample, "eventList")
	}
	t.prog.segs = merged(segs)
	return t, nil
}

// dataRows is the data table as bytes when the template uses a column.
func dataRows(segs []segment, d *Data) [][][]byte {
	if d == nil || !slices.ContainsFunc(segs, func(s segment) bool { return s.kind == segRow }) {
		return nil
	}
	rows := make([][][]byte, len(d.Rows))
	for i, r := range d.Rows {
		rows[i] = make([][]byte, len(r))
		for j, v := range r {
			rows[i][j] = []byte(v)
		}
	}
	return rows
}

// checkRows renders the body with each data row after the first (which
// the sample render checks) and reports the first row that does not make
// valid JSON, at the placeholder that inserted it.
func (t *Template) checkRows(src []byte, opts TemplateOptions) error {
	if opts.AllowInvalidJSON {
		return nil
	}
	for i := 1; i < len(t.prog.rows); i++ {
		out, starts := t.prog.traceRender(uint64(i), sampleDue())
		if off, msg, bad := jsonSyntaxError(out); bad {
			te := templateError(src, sourceOffset(t.prog.segs, starts, off, len(out), len(src)),
				fmt.Sprintf("rendered body with data row %d is not valid JSON: %s", i+1, msg))
			te.NotJSON = true
			return te
		}
	}
	return nil
}

// LoadTemplate reads and compiles the template file at path; compile
// errors name the file.
func LoadTemplate(path string, opts TemplateOptions) (*Template, error) {
	src, err := inputfile.ReadFile(path, "template", inputfile.Body)
	if err != nil {
		return nil, err
	}
	t, err := CompileTemplate(src, opts)
	if err != nil {
		var te *TemplateError
		if errors.As(err, &te) {
			te.Path = path
			return nil, te
		}
		return nil, fmt.Errorf("template %s: %w", path, err)
	}
	return t, nil
}

// AppendBody appends the body of request seq due at due to dst. Every
// placeholder sees the request's seq: in an eventList template, give each
// event its own eventId with a suffix, e.g. "{{.EventID}}-2".
func (t *Template) AppendBody(dst []byte, seq uint64, due time.Time) []byte {
	return t.prog.appendTo(dst, seq, due)
}

// AppendBodyFor is AppendBody for a request sent by worker (a connection
// of the pool): with TemplateOptions.DataPerWorker the data row is
// worker's, so each connection keeps one row (one simulated PNF each).
func (t *Template) AppendBodyFor(dst []byte, seq, worker uint64, due time.Time) []byte {
	row := seq
	if t.perWorker {
		row = worker
	}
	return t.prog.appendToRow(dst, seq, row, due)
}

// NotJSON says why the rendered body is not valid JSON (line, column and
// problem), for a template compiled with AllowInvalidJSON; it is empty for
// a body that is JSON.
func (t *Template) NotJSON() string { return t.notJSON }

// IsBatch reports whether the body's top-level object has an eventList,
// so the engine can post it to the eventBatch endpoint.
func (t *Template) IsBatch() bool { return t.batch }

// RunID returns the run ID the template's eventIds and UUIDs derive from.
func (t *Template) RunID() string { return t.runID }

// traceRender renders the program and records where each segment starts
// in the output, for mapping a JSON error back to the source.
func (p *program) traceRender(n uint64, due time.Time) ([]byte, []int) {
	var out []byte
	starts := make([]int, len(p.segs))
	for i := range p.segs {
		starts[i] = len(out)
		out = p.appendSegment(out, &p.segs[i], n, n, due)
	}
	return out, starts
}

// jsonSyntaxError reports the offset and message of the first syntax error
// in data, or bad=false when data is valid JSON.
func jsonSyntaxError(data []byte) (off int, msg string, bad bool) {
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	if err == nil {
		return 0, "", false
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return 0, err.Error(), true
	}
	if strings.Contains(se.Error(), "end of JSON input") {
		return len(data), se.Error(), true
	}
	return int(se.Offset) - 1, se.Error(), true // Offset counts the offending byte
}

// sourceOffset maps an offset in the rendered sample to the template
// source: exactly inside verbatim text, otherwise to the placeholder that
// produced the byte. The end of the sample maps to the end of the source.
func sourceOffset(segs []segment, starts []int, off, sampleLen, srcLen int) int {
	if off >= sampleLen || len(segs) == 0 {
		return srcLen
	}
	i := len(segs) - 1
	for i > 0 && starts[i] > off {
		i--
	}
	s := segs[i]
	if s.verbatim {
		return s.pos + off - starts[i]
	}
	return s.pos
}

// hasTopLevelKey reports whether the JSON object in data has key at its
// top level.
func hasTopLevelKey(data []byte, key string) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if k, _ := tok.(string); k == key {
			return true
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}
