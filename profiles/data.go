package profiles

import (
	"fmt"
	"unicode/utf8"

	"github.com/vesload/vesload/internal/expect"
)

// Data is a CSV file whose rows bind template variables, as JMeter's CSV
// Data Set Config does: one sourceName per simulated PNF, say. Each row's
// columns are the values of the variables Columns names.
type Data struct {
	// File is the CSV file, relative to the profile's folder.
	File string `yaml:"file"`
	// Columns names the variables of the columns in order; empty means
	// the file's first line names them.
	Columns []string `yaml:"columns,omitempty"`
	// Delimiter separates columns: one character, "," when empty.
	Delimiter string `yaml:"delimiter,omitempty"`
	// SkipFirstLine skips a header line when Columns names the variables.
	SkipFirstLine bool `yaml:"skip_first_line,omitempty"`
	// Per is DataPerRequest (the default: the rows in turn, one per
	// request, starting over at the end) or DataPerWorker (each worker
	// keeps one row: worker i uses row i mod rows).
	Per string `yaml:"per,omitempty"`
	// Option names the flag that gave File (--data-file), so that an
	// error speaks in the terms of where the value came from; empty for
	// the profile's data.file.
	Option string `yaml:"-"`
}

// How rows are handed out (Data.Per).
const (
	DataPerRequest = "request"
	DataPerWorker  = "worker"
)

// validate checks a data feed; a nil one is fine.
func (d *Data) validate() error {
	if d == nil {
		return nil
	}
	if d.File == "" {
		return fieldErr("data.file", "missing: want the CSV file whose rows bind variables")
	}
	for i, c := range d.Columns {
		if !ValidVarName(c) {
			return fieldErr(fmt.Sprintf("data.columns[%d]", i), "%q: want a variable name of letters, digits and _ not starting with a digit or __", c)
		}
	}
	if d.Delimiter != "" {
		if r, n := utf8.DecodeRuneInString(d.Delimiter); n != len(d.Delimiter) || r == utf8.RuneError || r == '"' || r == '\n' || r == '\r' {
			return fieldErr("data.delimiter", "%q: want one character other than a quote or a line break, such as , or ;", d.Delimiter)
		}
	}
	switch d.Per {
	case "", DataPerRequest, DataPerWorker:
	default:
		return fieldErr("data.per", "%q: want %s or %s", d.Per, DataPerRequest, DataPerWorker)
	}
	if d.SkipFirstLine && len(d.Columns) == 0 {
		return fieldErr("data.skip_first_line", "without columns the first line names the variables: give columns, or drop skip_first_line")
	}
	return nil
}

// validateExpectStatus checks target.expect_status.
func (p *Profile) validateExpectStatus() error {
	if _, err := expect.Parse(p.Target.ExpectStatus); err != nil {
		return fieldErr("target.expect_status", "%v", err)
	}
	return nil
}
