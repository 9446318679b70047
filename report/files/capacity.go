package files

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/vesload/vesload/report/result"
)

// isCapacity reports whether the file at path is a capacity document
// (schema vesload/capacity/v1). A file that cannot be read or decoded is
// not one: the run results' reader names what is wrong with it.
func isCapacity(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var top struct {
		Schema string `json:"schema"`
	}
	return json.Unmarshal(data, &top) == nil && top.Schema == result.CapacitySchema
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
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
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
