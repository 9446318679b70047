package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/result"
)

// reportFiles are the files a load test writes its result and renderings
// to. `run` and `hv` share their flags, the check before any load is sent
// and the writing afterwards, with its fallbacks.
type reportFiles struct {
	output, junit, html, markdown, csv string
}

// addFlags defines the flags of the files.
func (f *reportFiles) addFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&f.output, "output", "o", "", "write the result document to FILE ('-' for stdout)")
	fs.StringVar(&f.junit, "junit", "", "write the thresholds as JUnit XML to FILE")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report with charts to FILE")
	fs.StringVar(&f.markdown, "markdown", "", "write the summary as a Markdown table to FILE (for a wiki)")
	fs.StringVar(&f.csv, "csv", "", "write the per-second timeline as CSV to FILE")
}

// flagPath is an output file and the flag that named it.
type flagPath struct{ flag, path string }

func (f *reportFiles) paths() []flagPath {
	return []flagPath{{"-o", f.output}, {"--html", f.html}, {"--junit", f.junit}, {"--markdown", f.markdown}, {"--csv", f.csv}}
}

// checkOutputPaths checks every file a run will write before any load is
// sent: a folder, or a missing or read-only one, is bad input (exit 2)
// found in a second, not after a long test whose report would then be
// lost.
func checkOutputPaths(outs []flagPath) error {
	for _, out := range outs {
		if out.path == "" || (out.flag == "-o" && out.path == "-") {
			continue
		}
		if st, err := os.Stat(out.path); err == nil && st.IsDir() {
			return usagef("%s %s: is a folder, want a file name", out.flag, out.path)
		}
		if err := report.CheckWritable(out.path); err != nil {
			return usagef("%s %s: %v", out.flag, out.path, err)
		}
	}
	return nil
}

// write writes the result and every rendering asked for. A file that
// cannot be written does not stop the others; each is saved in the
// temporary folder instead, and the error says where.
func (f *reportFiles) write(res *result.Result, stdout, stderr io.Writer) error {
	var errs []error
	switch f.output {
	case "":
	case "-":
		if err := report.Encode(stdout, res); err != nil {
			errs = append(errs, fmt.Errorf("write result: %w", err))
		}
	default:
		if err := saveResult(f.output, res, stderr); err != nil {
			errs = append(errs, err)
		}
	}
	renders := []struct {
		path, what string
		render     func(io.Writer, *result.Result) error
	}{
		{f.junit, "JUnit", report.JUnit},
		{f.html, "HTML", html.Report},
		{f.markdown, "Markdown", report.Markdown},
		{f.csv, "CSV", report.CSV},
	}
	for _, r := range renders {
		if r.path == "" {
			continue
		}
		if err := saveRendering(r.path, r.what, res, r.render); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
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
