package main

import (
	"context"
	"io"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/report/files"
	"github.com/vesload/vesload/report/result"
)

// reportFiles are the files a load test writes its result and renderings
// to. `run` and `hv` share their flags, the check before any load is sent
// and the writing afterwards, with its fallbacks (report/files).
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

// paths are the report files asked for, each with the flag that named it.
func (f *reportFiles) paths() []files.Path {
	return []files.Path{{Option: "-o", Path: f.output}, {Option: "--html", Path: f.html}, {Option: "--junit", Path: f.junit},
		{Option: "--markdown", Path: f.markdown}, {Option: "--csv", Path: f.csv}}
}

// checkOutputPaths checks every file a run will write before any load is
// sent; a bad one is bad usage (exit 2).
func checkOutputPaths(paths []files.Path) error {
	if err := files.Check(paths); err != nil {
		return usageError{err}
	}
	return nil
}

// write writes the result and every rendering asked for, with fallbacks;
// ctx ending (a signal) ends a stuck write.
func (f *reportFiles) write(ctx context.Context, res *result.Result, stdout, stderr io.Writer) error {
	return files.Set{Result: f.output, JUnit: f.junit, HTML: f.html, Markdown: f.markdown, CSV: f.csv}.Write(ctx, res, stdout, stderr)
}
