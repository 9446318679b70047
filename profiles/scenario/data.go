package scenario

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/vesload/vesload/loadgen/ves"
	"github.com/vesload/vesload/profiles"
)

// loadData reads the profile's data file (--data-file): its rows bind the
// body templates' ${NAME} per request, in turn.
func loadData(d *profiles.Data) (*ves.Data, error) {
	if d.Per == profiles.DataPerWorker {
		return nil, errors.New("data.per: worker is not supported by REST runs yet: rows go to requests in turn (per: request)")
	}
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
