package main

import (
	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/report/files"
)

// addFileFlags defines the flags of the files a load test writes its
// result and renderings to (files.Set). `run` and `hv` share them, the
// check before any load is sent and the writing afterwards, with its
// fallbacks (report/files).
func addFileFlags(fs *pflag.FlagSet, f *files.Set) {
	fs.StringVarP(&f.Result, "output", "o", "", "write the result document to FILE ('-' for stdout)")
	fs.StringVar(&f.JUnit, "junit", "", "write the thresholds as JUnit XML to FILE")
	fs.StringVar(&f.HTML, "html", "", "write a self-contained HTML report with charts to FILE")
	fs.StringVar(&f.Markdown, "markdown", "", "write the summary as a Markdown table to FILE (for a wiki)")
	fs.StringVar(&f.CSV, "csv", "", "write the per-second timeline as CSV to FILE")
	fs.StringVar(&f.Dir, "result-dir", "", "also write the result document into this folder as vesload-<run id>[-shard-I].json (a volume that outlives a pod, beside -o -)")
}

// checkOutputPaths checks every file a run will write before any load is
// sent; a bad one is bad usage (exit 2).
func checkOutputPaths(paths []files.Path) error {
	if err := files.Check(paths); err != nil {
		return usage.Wrap(err)
	}
	return nil
}

// checkResultDir checks --result-dir before any load is sent (exit 2).
func checkResultDir(dir string) error {
	if err := files.CheckDir("--result-dir", dir); err != nil {
		return usage.Wrap(err)
	}
	return nil
}
