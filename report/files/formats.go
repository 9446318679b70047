package files

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/vesload/vesload/report"
	"github.com/vesload/vesload/report/compare"
	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/result"
)

// Formats maps each format a saved result can be rendered in (`vesload
// report --format`) to its renderer.
func Formats() map[string]func(io.Writer, *result.Result) error {
	return map[string]func(io.Writer, *result.Result) error{
		"text":     func(w io.Writer, r *result.Result) error { return report.Text(w, r, report.TextOptions{}) },
		"json":     report.Encode,
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
	if err := report.WriteFile(path, render); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
