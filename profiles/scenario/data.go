package scenario

import (
	"fmt"
	"unicode/utf8"

	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
)

// loadData reads the profile's data file (--data-file): its rows bind the
// body templates' ${NAME} per request, in turn.
func loadData(d *profiles.Data) (*ves.Data, error) {
	opts := ves.DataOptions{Columns: d.Columns, SkipFirstLine: d.SkipFirstLine}
	if d.Delimiter != "" {
		opts.Delimiter, _ = utf8.DecodeRuneInString(d.Delimiter)
	}
	t, err := ves.LoadData(d.File, opts)
	if err != nil {
		return nil, fmt.Errorf("--data-file %w", err)
	}
	return t, nil
}
