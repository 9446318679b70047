package files

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/vesload/vesload/report/html"
	"github.com/vesload/vesload/report/trend"
)

// HistoryFormats maps each format of `vesload trend` to its renderer.
func HistoryFormats() map[string]func(io.Writer, *trend.Analysis) error {
	return map[string]func(io.Writer, *trend.Analysis) error{
		"text":     trend.Text,
		"markdown": trend.Markdown,
		"json":     trend.JSON,
		"html":     html.Trend,
	}
}

// HistorySet is the files `vesload trend` writes, as ComparisonSet is
// compare's: the history in Format to Output (stdout when "" or "-"),
// and, when named, the HTML page and the gates' JUnit report.
type HistorySet struct{ Format, Output, HTML, JUnit string }

// Check refuses an unknown format, --junit without gates and outputs
// that cannot be written, before any file is read.
func (s HistorySet) Check(gates int) error {
	if _, ok := HistoryFormats()[s.Format]; !ok {
		return fmt.Errorf("--format: unknown format %q (want %s)", s.Format, FormatNames(HistoryFormats()))
	}
	if s.JUnit != "" && gates == 0 {
		return errors.New("--junit reports gates: give at least one --gate")
	}
	return Check([]Path{{"-o", s.Output}, {"--html", s.HTML}, {"--junit", s.JUnit}})
}

// TextOnStdout reports whether the text rendering, with its gates'
// section, goes to stdout.
func (s HistorySet) TextOnStdout() bool { return textOnStdout(s.Format, s.Output) }

// Write renders the history to every file of the set, in that order; the
// JUnit report only when the history has gates.
func (s HistorySet) Write(stdout io.Writer, a *trend.Analysis) error {
	render, ok := HistoryFormats()[s.Format]
	if !ok {
		return fmt.Errorf("--format: unknown format %q", s.Format)
	}
	var junit func(io.Writer) error
	if a.Gates != nil {
		junit = func(w io.Writer) error { return trend.JUnit(w, a) }
	}
	return writeRenderings(stdout, s.Output, s.HTML, s.JUnit,
		func(w io.Writer) error { return render(w, a) }, func(w io.Writer) error { return html.Trend(w, a) }, junit)
}

// ExpandHistory turns the arguments of `vesload trend` into result
// files: a folder stands for its *.json files (in name order), a pattern
// for its matches (ExpandGlobs), a file for itself. A folder without
// results is an error naming it.
func ExpandHistory(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		switch {
		case err == nil && !st.IsDir():
			out = append(out, a) // a file, whatever its name holds
			continue
		case err != nil:
			paths, err := ExpandGlobs([]string{a})
			if err != nil {
				return nil, err
			}
			out = append(out, paths...)
			continue
		}
		// Read, not globbed: a folder's name may hold [, * or ?.
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, err)
		}
		n := len(out)
		for _, e := range entries { // in name order
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
				out = append(out, filepath.Join(a, e.Name()))
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: no result files (*.json) in the folder", a)
		}
	}
	return out, distinctFiles(out)
}

// distinctFiles refuses a file given twice, however spelled (a folder and
// a pattern that both hold it, a link): a history counts each run once.
func distinctFiles(paths []string) error {
	infos := make([]os.FileInfo, len(paths))
	for i, p := range paths {
		infos[i], _ = os.Stat(p) // one that cannot be read is the reader's to name
	}
	for i := range paths {
		for j := range i {
			if infos[i] != nil && infos[j] != nil && os.SameFile(infos[i], infos[j]) {
				return fmt.Errorf("%s and %s are one file: a history counts each run once", paths[j], paths[i])
			}
		}
	}
	return nil
}
