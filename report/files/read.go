package files

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// ExpandGlobs replaces every argument holding a glob character (*?[)
// with the files it matches, in name order, so that shells that do not
// expand (or quoted patterns) work too. A pattern matching nothing is an
// error naming it.
func ExpandGlobs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if !strings.ContainsAny(a, "*?[") {
			out = append(out, a)
			continue
		}
		matches, err := filepath.Glob(a)
		if err != nil {
			return nil, fmt.Errorf("bad pattern %q: %w", a, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("no file matches %q", a)
		}
		out = append(out, matches...)
	}
	return out, nil
}

// ReadResults reads every result file; the first bad one stops it with
// the decoder's one-line error, which names the file.
func ReadResults(paths []string) ([]*result.Result, error) {
	rs := make([]*result.Result, len(paths))
	for i, p := range paths {
		r, err := resultfile.Read(p)
		if err != nil {
			return nil, err
		}
		rs[i] = r
	}
	return rs, nil
}

// ErrNoInputs is Inputs given nothing to read.
var ErrNoInputs = errors.New("no results given")

// Inputs reads the results a merge is given: files and globs, and "-"
// (once) for a stream of logs on stdin, as the pods of a sharded run
// print them. It returns each result with its name (its file, or where
// in the stream it was).
func Inputs(args []string, stdin io.Reader) ([]*result.Result, []string, error) {
	var rs []*result.Result
	var names, pending []string
	flush := func() error {
		paths, err := ExpandGlobs(pending)
		if err != nil {
			return err
		}
		read, err := ReadResults(paths)
		if err != nil {
			return err
		}
		rs, names, pending = append(rs, read...), append(names, paths...), nil
		return nil
	}
	stdinUsed := false
	for _, a := range args {
		if a != "-" {
			pending = append(pending, a)
			continue
		}
		if stdinUsed {
			return nil, nil, errors.New("'-' given twice: standard input is read once")
		}
		stdinUsed = true
		if err := flush(); err != nil {
			return nil, nil, err
		}
		got, labels, err := resultfile.ScanResults(stdin, "stdin")
		if err != nil {
			return nil, nil, err
		}
		rs, names = append(rs, got...), append(names, labels...)
	}
	if err := flush(); err != nil {
		return nil, nil, err
	}
	if len(rs) == 0 {
		return nil, nil, ErrNoInputs
	}
	return rs, names, nil
}

// Side is one side of a comparison: its result files, globs expanded,
// and the results read from them.
type Side struct {
	Files   []string
	Results []*result.Result
}

// ReadSides reads both sides of a comparison (`vesload compare A... --vs
// B...`); each side must name at least one file.
func ReadSides(argsA, argsB []string) (a, b Side, err error) {
	if a.Files, err = ExpandGlobs(argsA); err != nil {
		return a, b, err
	}
	if b.Files, err = ExpandGlobs(argsB); err != nil {
		return a, b, err
	}
	if len(a.Files) == 0 || len(b.Files) == 0 {
		return a, b, fmt.Errorf("want result files on both sides of --vs, got %d before and %d after", len(a.Files), len(b.Files))
	}
	if a.Results, err = ReadResults(a.Files); err != nil {
		return a, b, err
	}
	b.Results, err = ReadResults(b.Files)
	return a, b, err
}
