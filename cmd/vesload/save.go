package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
)

// saveResult writes the result document to path. A run's result is not
// lost when that fails (a full disk, a missing folder): it is written to
// the temporary directory instead, or, when that fails too, printed on
// stderr; the error says where it went.
func saveResult(ctx context.Context, path string, res *result.Result, stderr io.Writer) error {
	err := report.WriteFileContext(ctx, path, func(w io.Writer) error { return report.Encode(w, res) })
	if err == nil {
		return nil
	}
	err = fmt.Errorf("write result %s: %w", path, err)
	fallback := filepath.Join(os.TempDir(), fallbackName(res))
	if ferr := report.Write(fallback, res); ferr == nil {
		return fmt.Errorf("%w; the result was saved to %s instead", err, fallback)
	}
	fmt.Fprintln(stderr, "vesload: the result could not be saved; here it is:")
	if eerr := report.Encode(stderr, res); eerr != nil {
		return fmt.Errorf("%w; printing it failed too: %v", err, eerr)
	}
	return fmt.Errorf("%w; the result was printed on stderr instead", err)
}

// fallbackName names a result saved away from its path by the run's id,
// which is unique, or by the time when there is none.
func fallbackName(res *result.Result) string {
	id := res.Config.RunID
	if id == "" {
		id = time.Now().UTC().Format("20060102T150405.000000000")
	}
	return "vesload-result-" + id + ".json"
}
