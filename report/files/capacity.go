package files

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/vesload/vesload/internal/inputfile"
	"github.com/vesload/vesload/report/result"
)

// isCapacity reports whether the file at path is a capacity document
// (schema vesload/capacity/v1), from the top-level "schema" of at most its
// first peekLimit bytes: telling the kinds apart reads neither a whole
// result nor an endless device (/dev/zero). A file that cannot be read or
// decoded is not one: the run results' reader names what is wrong with it.
func isCapacity(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	schema, ok := topLevelString(json.NewDecoder(io.LimitReader(f, peekLimit)), "schema")
	return ok && schema == result.CapacitySchema
}

// peekLimit bounds what isCapacity reads of a file: both documents write
// their schema first.
const peekLimit = 1 << 20

// topLevelString is the string value of key in the JSON object dec
// starts with, skipping the values before it; false when dec holds no
// object, the key is missing or its value is not a string.
func topLevelString(dec *json.Decoder, key string) (string, bool) {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	for {
		k, err := dec.Token()
		name, isKey := k.(string)
		if err != nil || !isKey {
			return "", false
		}
		if name == key {
			v, err := dec.Token()
			s, ok := v.(string)
			return s, err == nil && ok
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", false
		}
	}
}

// CapacityInputs tells whether the files at paths are capacity
// documents: true when all are, false when none is (or a pattern matches
// nothing: the run results' reader says so). Some of each is an error
// naming one of each, since a search's answer and a run's figures do not
// compare.
func CapacityInputs(paths []string) (bool, error) {
	var capacity, run string
	for _, p := range paths {
		if isCapacity(p) {
			capacity = p
		} else {
			run = p
		}
		if capacity != "" && run != "" {
			return false, fmt.Errorf("%s is a capacity document and %s is not: give capacity documents only, or run results only", capacity, run)
		}
	}
	return capacity != "", nil
}

// ReadCapacity reads capacity documents; the first that cannot be read,
// decoded or is not one stops it with an error naming its file.
func ReadCapacity(paths []string) ([]*result.CapacityDocument, error) {
	out := make([]*result.CapacityDocument, len(paths))
	for i, p := range paths {
		data, err := inputfile.ReadFile(p, "capacity document", inputfile.Result)
		if err != nil {
			return nil, err
		}
		var d result.CapacityDocument
		if err := json.Unmarshal(data, &d); err != nil {
			return nil, fmt.Errorf("%s: not a capacity document: %w", p, err)
		}
		if d.Schema != result.CapacitySchema {
			return nil, fmt.Errorf("%s: schema %q: want %s", p, d.Schema, result.CapacitySchema)
		}
		out[i] = &d
	}
	return out, nil
}
