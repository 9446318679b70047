package files

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
	"github.com/vesload/vesload/report/summary"
)

// Formats maps each format a saved result can be rendered in (`vesload
// report --format`) to its renderer.
func Formats() map[string]func(io.Writer, *result.Result) error {
	return map[string]func(io.Writer, *result.Result) error{
		"text":     func(w io.Writer, r *result.Result) error { return summary.Text(w, r, summary.Options{}) },
		"json":     resultfile.Encode,
		"html":     html.Report,
		"junit":    report.JUnit,
		"csv":      report.CSV,
		"markdown": report.Markdown,
	}
}

// ComparisonRenderer renders a comparison; the HTML page also charts the
// runs of each side.
type ComparisonRenderer func(w io.Writer, c *compare.Comparison, a, b []*result.Result) error

// ComparisonFormats maps each format of `vesload compare` to its renderer.
func ComparisonFormats() map[string]ComparisonRenderer {
	return map[string]ComparisonRenderer{
		"text":     func(w io.Writer, c *compare.Comparison, _, _ []*result.Result) error { return compare.Text(w, c) },
		"markdown": func(w io.Writer, c *compare.Comparison, _, _ []*result.Result) error { return compare.Markdown(w, c) },
		"json":     func(w io.Writer, c *compare.Comparison, _, _ []*result.Result) error { return compare.JSON(w, c) },
		"html":     html.Comparison,
	}
}

// FormatNames lists the keys of a format table, sorted, for an error
// message.
func FormatNames[V any](m map[string]V) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

// WriteOutput renders to stdout when path is empty or "-", else to the
// file at path, atomically.
func WriteOutput(path string, stdout io.Writer, render func(io.Writer) error) error {
	if path == "" || path == "-" {
		return render(stdout)
	}
	if err := resultfile.WriteFile(path, render); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ComparisonSet is the files `vesload compare` writes: the comparison in
// Format to Output (stdout when "" or "-"), and, when named, the HTML
// page with the per-run charts and the gates' JUnit report.
type ComparisonSet struct{ Format, Output, HTML, JUnit string }

// Check refuses an unknown format before any file is read.
func (s ComparisonSet) Check() error {
	if _, ok := ComparisonFormats()[s.Format]; !ok {
		return fmt.Errorf("--format: unknown format %q (want %s)", s.Format, FormatNames(ComparisonFormats()))
	}
	return nil
}

// Options checks a comparison's settings with the set before any file
// is read, and returns them as compare.Options: the format (Check), the
// settings themselves (compare.Settings), and the JUnit file, which
// reports gates, so needs one, and must be writable.
func (s ComparisonSet) Options(st compare.Settings) (compare.Options, error) {
	if err := s.Check(); err != nil {
		return compare.Options{}, err
	}
	opts, err := st.Options()
	switch {
	case err != nil || s.JUnit == "":
		return opts, err
	case len(opts.Gates) == 0:
		return opts, errors.New("--junit reports gates: give at least one --gate")
	}
	return opts, Check([]Path{{Option: "--junit", Path: s.JUnit}})
}

// TextOnStdout reports whether the text rendering goes to stdout, where
// its gates' section tells the user what the gates decided; otherwise
// the caller says it on stderr (compare.GateSet.Summary).
func (s ComparisonSet) TextOnStdout() bool { return textOnStdout(s.Format, s.Output) }

// textOnStdout reports whether a rendering in format to output is the
// text one on stdout.
func textOnStdout(format, output string) bool {
	return format == "text" && (output == "" || output == "-")
}

// Write renders the comparison of a with b to every file of the set, in
// that order; the JUnit report only when the comparison has gates.
func (s ComparisonSet) Write(stdout io.Writer, cmp *compare.Comparison, a, b []*result.Result) error {
	if err := s.Check(); err != nil {
		return err
	}
	render := ComparisonFormats()[s.Format]
	var junit func(io.Writer) error
	if cmp.Gates != nil {
		junit = func(w io.Writer) error { return compare.JUnit(w, cmp) }
	}
	return writeRenderings(stdout, s.Output, s.HTML, s.JUnit,
		func(w io.Writer) error { return render(w, cmp, a, b) },
		func(w io.Writer) error { return html.Comparison(w, cmp, a, b) }, junit)
}

// writeRenderings writes what compare and trend write, in this order:
// the rendering to output (WriteOutput), the HTML page to htmlPath and
// the JUnit report to junitPath, each when named; junit is nil when
// there are no gates to report.
func writeRenderings(stdout io.Writer, output, htmlPath, junitPath string, render, page, junit func(io.Writer) error) error {
	if err := WriteOutput(output, stdout, render); err != nil {
		return err
	}
	if htmlPath != "" {
		if err := resultfile.WriteFile(htmlPath, page); err != nil {
			return fmt.Errorf("write HTML %s: %w", htmlPath, err)
		}
	}
	if junitPath != "" && junit != nil {
		if err := resultfile.WriteFile(junitPath, junit); err != nil {
			return fmt.Errorf("write JUnit %s: %w", junitPath, err)
		}
	}
	return nil
}

// WriteResult writes the result document to stdout when path is empty
// or "-", else to the file at path, atomically (resultfile.Write): the
// output of every command whose -o is a result (merge, consume).
func WriteResult(path string, stdout io.Writer, r *result.Result) error {
	if path == "" || path == "-" {
		return resultfile.Encode(stdout, r)
	}
	return resultfile.Write(path, r)
}
