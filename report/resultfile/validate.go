package resultfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vesload/vesload/report/result"
)

// requiredFields are the top-level fields of the v1 document (docs/ARCHITECTURE.md, "The result document").
// The list is fixed on purpose: fields added later must stay optional so
// that older files remain readable.
func requiredFields() []string {
	return []string{
		"schema", "tool", "config", "started", "ended", "duration_s",
		"interrupted", "requests", "errors", "rps", "latency_ms", "service_ms",
		"bytes", "generator", "histograms", "timeline",
	}
}

func checkSchema(top map[string]json.RawMessage) error {
	raw, ok := top["schema"]
	if !ok {
		return errors.New(`not a vesload result (no "schema" field)`)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf(`"schema" is %s, want the string %q`, oneLine(raw), result.Schema)
	}
	if s != result.Schema {
		return fmt.Errorf("schema %q is not supported (want %q)", s, result.Schema)
	}
	return nil
}

func missingFields(top map[string]json.RawMessage) []string {
	var missing []string
	for _, f := range requiredFields() {
		if _, ok := top[f]; !ok {
			missing = append(missing, f)
		}
	}
	return missing
}

// validate refuses values no writer produces, so that a hand-edited or
// corrupted file is caught on reading rather than rendered as nonsense.
func validate(r *result.Result) error {
	counts := []struct {
		name string
		v    int64
	}{
		{"requests.scheduled", r.Requests.Scheduled},
		{"requests.sent", r.Requests.Sent},
		{"requests.ok", r.Requests.OK},
		{"requests.errors", r.Requests.Errors},
		{"requests.not_sent", r.Requests.NotSent},
	}
	for _, c := range counts {
		if c.v < 0 {
			return fmt.Errorf("%s is negative (%d)", c.name, c.v)
		}
	}
	for _, class := range slices.Sorted(maps.Keys(r.Errors)) {
		if r.Errors[class] < 0 {
			return fmt.Errorf("errors.%s is negative (%d)", class, r.Errors[class])
		}
	}
	if r.DurationS < 0 {
		return fmt.Errorf("duration_s is negative (%g)", r.DurationS)
	}
	if err := checkHistogram("histograms.latency", r.Histograms.Latency); err != nil {
		return err
	}
	return checkHistogram("histograms.service", r.Histograms.Service)
}

func checkHistogram(field, s string) error {
	if s == "" {
		return nil
	}
	if _, err := result.DecodeHistogram(s); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	return nil
}

// jsonError turns a decoding error into one line naming the file and,
// when the decoder knows the offset, the line and column.
func jsonError(name string, data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		off := syn.Offset - 1 // the offending byte
		if strings.HasPrefix(syn.Error(), "unexpected end") {
			off = int64(len(data)) // the input ended early: point past its end
		}
		line, col := position(data, off)
		return fmt.Errorf("%s:%d:%d: invalid JSON: %s", name, line, col, syn.Error())
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		line, col := position(data, typ.Offset-1)
		if typ.Field == "" {
			return fmt.Errorf("%s:%d:%d: want a JSON object, found %s", name, line, col, typ.Value)
		}
		return fmt.Errorf("%s:%d:%d: %s: want %s, found %s", name, line, col, typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value)
	}
	return fmt.Errorf("%s: %s", name, strings.Join(strings.Fields(err.Error()), " "))
}

// checkTimes names the field of a bad timestamp, which the JSON decoder
// does not do.
func checkTimes(top map[string]json.RawMessage) error {
	for _, f := range []string{"started", "ended"} {
		raw, ok := top[f]
		if !ok {
			continue
		}
		var tm time.Time
		if err := json.Unmarshal(raw, &tm); err != nil {
			return fmt.Errorf("%s: want an RFC 3339 time such as \"2025-03-04T10:00:00Z\", found %s", f, oneLine(raw))
		}
	}
	return nil
}

// jsonKind names a Go kind the way a JSON author thinks of it.
func jsonKind(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"), strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "string":
		return "a string"
	case kind == "bool":
		return "true or false"
	case kind == "map", kind == "struct":
		return "an object"
	case kind == "slice", kind == "array":
		return "an array"
	}
	return kind
}

// position converts a byte offset into a 1-based line and a 1-based column
// counted in characters, as editors show them.
func position(data []byte, off int64) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = 1 + strings.Count(string(before), "\n")
	start := strings.LastIndexByte(string(before), '\n') + 1
	col = 1 + utf8.RuneCount(before[start:])
	return line, col
}

// oneLine shortens text for an error message and keeps it on one line.
func oneLine(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if utf8.RuneCountInString(s) > 60 {
		s = string([]rune(s)[:57]) + "..."
	}
	return s
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
