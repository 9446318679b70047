package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/result"
)

// checkOutputPaths checks every file the run will write before any load
// is sent: a missing or read-only folder is bad input (exit 2) found in a
// second, not after a long test whose report would then be lost.
func checkOutputPaths(o *runOptions) error {
	outs := []struct{ flag, path string }{
		{"-o", o.output}, {"--html", o.html}, {"--junit", o.junit}, {"--jtl", o.jtl},
		{"--hdr-log", o.hdrLog}, {"--markdown", o.markdown}, {"--csv", o.csv},
	}
	for _, out := range outs {
		if out.path == "" || (out.flag == "-o" && out.path == "-") {
			continue
		}
		if err := report.CheckWritable(out.path); err != nil {
			return usagef("%s %s: %v", out.flag, out.path, err)
		}
	}
	return nil
}

// saveRendering writes one rendering of the result (HTML, JUnit, …) to
// path. When that fails after the run, the rendering is written to the
// temporary folder instead, as the result document is, and the error says
// where it went.
func saveRendering(path, what string, res *result.Result, render func(io.Writer, *result.Result) error) error {
	write := func(p string) error { return report.WriteFile(p, func(w io.Writer) error { return render(w, res) }) }
	err := write(path)
	if err == nil {
		return nil
	}
	err = fmt.Errorf("write %s %s: %w", what, path, err)
	ext := filepath.Ext(path)
	if ext == "" {
		ext = ".txt"
	}
	name := strings.TrimSuffix(strings.TrimPrefix(fallbackName(res), "vesload-result-"), ".json")
	fallback := filepath.Join(os.TempDir(), "vesload-"+strings.ToLower(what)+"-"+name+ext)
	if ferr := write(fallback); ferr != nil {
		return errors.Join(err, fmt.Errorf("saving it to %s failed too: %w", fallback, ferr))
	}
	return fmt.Errorf("%w; it was saved to %s instead", err, fallback)
}
