package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// Set is the files a load test writes: the result document ("-" for
// stdout) and each rendering; an empty path is not written. Dir, when
// set, is a folder that gets a copy of the result document under its own
// name (CopyName): a volume that outlives a pod whose result also goes to
// its log.
type Set struct {
	Result, JUnit, HTML, Markdown, CSV string
	Dir                                string
}

// CopyName is the name of res's copy in a Set's Dir, unique within a run:
// vesload-<run id>.json, vesload-<run id>-shard-<I>.json for a shard's,
// vesload-<run id>-consume.json for a lone consumer's.
func CopyName(res *result.Result) string {
	id := res.Config.RunID
	if id == "" {
		id = res.Started.UTC().Format("20060102T150405")
	}
	switch {
	case res.Delivery != nil && res.Delivery.Consumer:
		return "vesload-" + id + "-consume.json"
	case res.Shard != nil && res.Shard.Count > 1:
		return fmt.Sprintf("vesload-%s-shard-%d.json", id, res.Shard.Index)
	}
	return "vesload-" + id + ".json"
}

// Paths are the files of the set, each with the option that names it, as
// Check takes them before any load is sent.
func (s Set) Paths() []Path {
	return []Path{{Option: "-o", Path: s.Result}, {Option: "--html", Path: s.HTML}, {Option: "--junit", Path: s.JUnit},
		{Option: "--markdown", Path: s.Markdown}, {Option: "--csv", Path: s.CSV}}
}

// Write writes the result and every rendering asked for. A file that
// cannot be written does not stop the others; each is saved in the
// temporary folder instead, and the error says where. A result that
// cannot be saved anywhere is printed on stderr. When ctx ends (a
// signal), a write stuck on a named pipe or a device gives up at once
// and falls back the same way.
func (s Set) Write(ctx context.Context, res *result.Result, stdout, stderr io.Writer) error {
	var errs []error
	switch s.Result {
	case "":
	case "-":
		if err := resultfile.Encode(stdout, res); err != nil {
			errs = append(errs, fmt.Errorf("write result: %w", err))
		}
	default:
		if err := SaveResult(ctx, s.Result, res, stderr); err != nil {
			errs = append(errs, err)
		}
	}
	if s.Dir != "" {
		if err := SaveResult(ctx, filepath.Join(s.Dir, CopyName(res)), res, stderr); err != nil {
			errs = append(errs, err)
		}
	}
	renders := []struct {
		path, what, ext string
		render          func(io.Writer, *result.Result) error
	}{
		{s.JUnit, "JUnit", ".xml", report.JUnit},
		{s.HTML, "HTML", ".html", html.Report},
		{s.Markdown, "Markdown", ".md", report.Markdown},
		{s.CSV, "CSV", ".csv", report.CSV},
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
		return resultfile.WriteFileContext(ctx, p, func(w io.Writer) error { return render(w, res) })
	}
	err := write(ctx, path)
	if err == nil {
		return nil
	}
	err = fmt.Errorf("write %s %s: %w", what, path, err)
	fallback := fallbackPath(res, strings.ToLower(what), ext)
	if ferr := write(context.Background(), fallback); ferr != nil {
		return errors.Join(err, fmt.Errorf("saving it to %s failed too: %w", fallback, ferr))
	}
	return fmt.Errorf("%w; it was saved to %s instead", err, fallback)
}

// SaveResult writes the result document to path. A run's result is not
// lost when that fails (a full disk, a missing folder): it is written to
// the temporary directory instead, or, when that fails too, printed on
// stderr; the error says where it went.
func SaveResult(ctx context.Context, path string, res *result.Result, stderr io.Writer) error {
	err := resultfile.WriteFileContext(ctx, path, func(w io.Writer) error { return resultfile.Encode(w, res) })
	if err == nil {
		return nil
	}
	err = fmt.Errorf("write result %s: %w", path, err)
	fallback := fallbackPath(res, "result", ".json")
	if ferr := resultfile.Write(fallback, res); ferr == nil {
		return fmt.Errorf("%w; the result was saved to %s instead", err, fallback)
	}
	fmt.Fprintln(stderr, "vesload: the result could not be saved; here it is:")
	if eerr := resultfile.Encode(stderr, res); eerr != nil {
		return fmt.Errorf("%w; printing it failed too: %v", err, eerr)
	}
	return fmt.Errorf("%w; the result was printed on stderr instead", err)
}

// fallbackPath is where a file of the run that could not be written at
// its path is saved instead: vesload-<kind>-<id><ext> in the temporary
// folder, named by the run's id, which is unique, or by the time when
// there is none.
func fallbackPath(res *result.Result, kind, ext string) string {
	id := res.Config.RunID
	if id == "" {
		id = time.Now().UTC().Format("20060102T150405.000000000")
	}
	return filepath.Join(os.TempDir(), "vesload-"+kind+"-"+id+ext)
}
