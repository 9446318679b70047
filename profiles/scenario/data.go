package scenario

import (
	"fmt"
	"unicode/utf8"

	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
)

// loadData reads the profile's data file (data.file of the profile
// source, or --data-file): its rows bind the body templates' ${NAME} per
// request, in turn. An error names where the file was given.
func loadData(d *profiles.Data, source string) (*ves.Data, error) {
	opts := ves.DataOptions{Columns: d.Columns, SkipFirstLine: d.SkipFirstLine}
	if d.Delimiter != "" {
		opts.Delimiter, _ = utf8.DecodeRuneInString(d.Delimiter)
	}
	t, err := ves.LoadData(d.File, opts)
	if err != nil {
		if d.Option != "" {
			return nil, fmt.Errorf("%s %w", d.Option, err)
		}
		return nil, fmt.Errorf("%s: %w", source, err) // "data file: …"
	}
	return t, nil
}
