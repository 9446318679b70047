package ves

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/vesload/vesload/internal/inputfile"
)

// Data is a table of template variable values, JMeter's CSV Data Set
// Config: request n binds each column's ${NAME} to row n mod len(Rows),
// so that, say, every simulated PNF sends with its own sourceName.
type Data struct {
	Columns []string
	Rows    [][]string
}

// DataOptions say how a CSV file is read.
type DataOptions struct {
	// Columns names the variables of the columns; empty means the file's
	// first line names them.
	Columns []string
	// Delimiter separates columns; ',' when zero.
	Delimiter rune
	// SkipFirstLine skips a header line when Columns names the variables.
	SkipFirstLine bool
}

// Bounds of a data file: every row is checked at compile time and kept in
// memory for the run.
const (
	maxDataRows = 100_000
)

// LoadData reads the CSV file at path; errors name the file.
func LoadData(path string, opts DataOptions) (*Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data file: %w", err)
	}
	defer f.Close()
	return ReadData(f, path, opts)
}

// ReadData reads a CSV table from r. name (usually the file name) starts
// every error, which is one line naming the line at fault: a row with
// another number of columns, a header that is not variable names, a file
// with no rows, or one over the size bounds.
func ReadData(r io.Reader, name string, opts DataOptions) (*Data, error) {
	cr := csv.NewReader(bufio.NewReader(inputfile.Reader(r, name, "data file", inputfile.Data)))
	if opts.Delimiter != 0 {
		cr.Comma = opts.Delimiter
	}
	cr.ReuseRecord = false
	d := &Data{Columns: slices.Clone(opts.Columns)}
	if len(d.Columns) == 0 || opts.SkipFirstLine {
		header, err := cr.Read()
		if err != nil {
			return nil, dataError(name, err, "no header line")
		}
		if len(d.Columns) == 0 {
			d.Columns = trimAll(header)
		}
	}
	if err := checkColumns(name, d.Columns); err != nil {
		return nil, err
	}
	cr.FieldsPerRecord = len(d.Columns)
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, dataError(name, err, "")
		}
		if len(d.Rows) == maxDataRows {
			return nil, fmt.Errorf("%s: more than %d rows", name, maxDataRows)
		}
		d.Rows = append(d.Rows, rec)
	}
	if len(d.Rows) == 0 {
		return nil, fmt.Errorf("%s: no data rows (want one line of values per row)", name)
	}
	return d, nil
}

// checkColumns refuses column names that cannot be template variables
// and names given twice.
func checkColumns(name string, cols []string) error {
	seen := map[string]bool{}
	for i, c := range cols {
		if !validVarName(c) {
			return fmt.Errorf("%s: column %d %q is not a variable name (letters, digits and _, not starting with a digit or __)", name, i+1, c)
		}
		if seen[c] {
			return fmt.Errorf("%s: column %q named twice", name, c)
		}
		seen[c] = true
	}
	return nil
}

// validVarName is the rule of ${NAME} template variables.
func validVarName(s string) bool {
	if s == "" || strings.HasPrefix(s, "__") || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// dataError turns a csv error into one line with the file name.
func dataError(name string, err error, empty string) error {
	if errors.Is(err, io.EOF) && empty != "" {
		return fmt.Errorf("%s: %s", name, empty)
	}
	if errors.As(err, new(*inputfile.TooLargeError)) {
		return err
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			return fmt.Errorf("%s:%d: wrong number of columns (every row needs one value per column)", name, pe.Line)
		}
		return fmt.Errorf("%s:%d:%d: %v", name, pe.Line, pe.Column, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

func trimAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.TrimSpace(s)
	}
	return out
}

// column returns the index of a column, or -1.
func (d *Data) column(name string) int {
	if d == nil {
		return -1
	}
	return slices.Index(d.Columns, name)
}
