package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/vesload/vesload/report/result"
)

// Encode writes r as indented JSON, the form -o - prints and the form
// files hold. A result without a schema is written as the current schema
// (r itself is not changed), so that a half-filled result saved in a hurry
// can still be read back.
func Encode(w io.Writer, r *result.Result) error {
	if r == nil {
		return errors.New("encode result: no result")
	}
	c := *r
	if c.Schema == "" {
		c.Schema = result.Schema
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// URLs and messages stay readable: no \u0026 for '&'.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	return nil
}

// Write saves r at path atomically (see WriteFile). Path "-" (stdout) is
// the caller's business: use Encode.
func Write(path string, r *result.Result) error {
	if path == "" || path == "-" {
		return fmt.Errorf("write result %q: not a file path (use Encode for stdout)", path)
	}
	if err := WriteFile(path, func(w io.Writer) error { return Encode(w, r) }); err != nil {
		return fmt.Errorf("write result %s: %w", path, err)
	}
	return nil
}

// WriteFile renders into a temporary file in path's directory, flushes it
// to disk and renames it over path, so that readers and crashes only ever
// see the old or the new file, never half of one; a failed render leaves
// the old file alone. Every rendering vesload writes goes through it.
func WriteFile(path string, render func(io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	if err := writeSynced(tmp, render); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	syncDir(dir)
	return nil
}

// writeSynced renders into f, flushes it to stable storage and closes it.
// Reports are not secret, so the file gets the usual 0644 instead of
// CreateTemp's 0600.
func writeSynced(f *os.File, render func(io.Writer) error) error {
	bw := bufio.NewWriter(f)
	err := render(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir makes the rename durable where the platform allows it; failing
// to sync a directory never fails the write, the data is already safe.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// Read loads and checks the result document at path; see Decode.
func Read(path string) (*result.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read result: %w", err)
	}
	defer f.Close()
	return Decode(f, path)
}

// Decode reads one result document from rd. name (usually the file name)
// starts every error, which is a single line: "name:line:col: message"
// for JSON syntax and type errors, "name: message" otherwise. It refuses
// documents of another schema, documents missing a required field,
// negative request counts and histograms that do not decode, so that
// comparisons and gates never run on a misread file. Unknown fields are
// ignored: newer writers may add fields.
func Decode(rd io.Reader, name string) (*result.Result, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: empty file (want a vesload result JSON document)", name)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, jsonError(name, data, err)
	}
	if err := checkSchema(top); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := checkTimes(top); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r := new(result.Result)
	if err := json.Unmarshal(data, r); err != nil {
		return nil, jsonError(name, data, err)
	}
	if missing := missingFields(top); len(missing) > 0 {
		return nil, fmt.Errorf("%s: not a complete vesload result: missing %s", name, quoteList(missing))
	}
	if err := validate(r); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}
