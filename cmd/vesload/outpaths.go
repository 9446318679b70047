package main

import (
	"context"
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
	if err := checkDistinctPaths(outs); err != nil {
		return err
	}
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

// checkDistinctPaths refuses two outputs that name one file, however it
// is spelled (a relative and an absolute path, a symlink, a hard link):
// the one written last would replace the other. The null device may take
// any number of them.
func checkDistinctPaths(outs []flagPath) error {
	seen := make([]flagPath, 0, len(outs))
	for _, out := range outs {
		if out.path == "" || (out.flag == "-o" && out.path == "-") {
			continue
		}
		if abs, err := filepath.Abs(out.path); err == nil && abs == os.DevNull {
			continue
		}
		for _, prev := range seen {
			if sameFile(prev.path, out.path) {
				return usagef("%s %s and %s %s name the same file: give each output its own", prev.flag, prev.path, out.flag, out.path)
			}
		}
		seen = append(seen, out)
	}
	return nil
}

// sameFile reports whether paths a and b name one file, existing or not.
func sameFile(a, b string) bool {
	if sa, err := os.Stat(a); err == nil {
		if sb, err := os.Stat(b); err == nil {
			return os.SameFile(sa, sb)
		}
	}
	return canonicalPath(a) == canonicalPath(b)
}

// canonicalPath is path made absolute with its links resolved, for a file
// that may not exist yet: a dangling link names the file it will create.
func canonicalPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	for range 40 { // the kernel's limit of links in a chain
		st, err := os.Lstat(abs)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			break
		}
		dest, err := os.Readlink(abs)
		if err != nil {
			break
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(abs), dest)
		}
		abs = dest
	}
	dir, base := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(real, base)
	}
	return abs
}

// write writes the result and every rendering asked for. A file that
// cannot be written does not stop the others; each is saved in the
// temporary folder instead, and the error says where. When ctx ends (a
// signal), a write stuck on a named pipe or a device gives up at once
// and falls back the same way.
func (f *reportFiles) write(ctx context.Context, res *result.Result, stdout, stderr io.Writer) error {
	var errs []error
	switch f.output {
	case "":
	case "-":
		if err := report.Encode(stdout, res); err != nil {
			errs = append(errs, fmt.Errorf("write result: %w", err))
		}
	default:
		if err := saveResult(ctx, f.output, res, stderr); err != nil {
			errs = append(errs, err)
		}
	}
	renders := []struct {
		path, what, ext string
		render          func(io.Writer, *result.Result) error
	}{
		{f.junit, "JUnit", ".xml", report.JUnit},
		{f.html, "HTML", ".html", html.Report},
		{f.markdown, "Markdown", ".md", report.Markdown},
		{f.csv, "CSV", ".csv", report.CSV},
	}
	for _, r := range renders {
		if r.path == "" {
			continue
		}
		if err := saveRendering(ctx, r.path, r.what, r.ext, res, r.render); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// saveRendering writes one rendering of the result (HTML, JUnit, …) to
// path. When that fails after the run, the rendering is written to the
// temporary folder instead, as the result document is, and the error says
// where it went: vesload-<kind>-<run id><ext>, ext being the format's own
// extension (.html, .xml, .md, .csv), whatever path was called.
func saveRendering(ctx context.Context, path, what, ext string, res *result.Result, render func(io.Writer, *result.Result) error) error {
	write := func(ctx context.Context, p string) error {
		return report.WriteFileContext(ctx, p, func(w io.Writer) error { return render(w, res) })
	}
	err := write(ctx, path)
	if err == nil {
		return nil
	}
	err = fmt.Errorf("write %s %s: %w", what, path, err)
	name := strings.TrimSuffix(strings.TrimPrefix(fallbackName(res), "vesload-result-"), ".json")
	fallback := filepath.Join(os.TempDir(), "vesload-"+strings.ToLower(what)+"-"+name+ext)
	if ferr := write(context.Background(), fallback); ferr != nil {
		return errors.Join(err, fmt.Errorf("saving it to %s failed too: %w", fallback, ferr))
	}
	return fmt.Errorf("%w; it was saved to %s instead", err, fallback)
}
