package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/vesload/vesload/internal/cliflag"
	"github.com/vesload/vesload/profiles/jmx"
	"github.com/vesload/vesload/report/resultfile"
)

const importJMXSynopsis = "vesload import-jmx PLAN.jmx [-o profile.yaml] [--set NAME=VALUE ...]"

// importJMXOptions holds the flags of `vesload import-jmx`.
type importJMXOptions struct {
	output string
	sets   []string
}

// runImportJMX converts a JMeter plan into a profile. Everything the
// import could not translate is printed as a warning, so nothing of the
// plan is lost without the user knowing; the profile itself carries the
// same list as comments.
func runImportJMX(args []string, stdout, stderr io.Writer) int {
	var o importJMXOptions
	fs := newFlagSet("import-jmx")
	fs.StringVarP(&o.output, "output", "o", "", "write the profile to FILE (default: stdout)")
	fs.StringArrayVar(&o.sets, "set", nil, "give variable NAME the value VALUE in the profile, e.g. --set WORKER_IP=collector (repeatable)")
	if code, done := parseCommand(fs, args, importJMXSynopsis, stdout, stderr); done {
		return code
	}
	switch fs.NArg() {
	case 0:
		return fail(stderr, "vesload import-jmx", usagef("name the JMeter plan to import (usage: %s)", importJMXSynopsis))
	case 1:
	default:
		return fail(stderr, "vesload import-jmx", usagef("unexpected argument %q: import one plan at a time", fs.Arg(1)))
	}
	code, err := importJMX(&o, fs.Arg(0), stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vesload import-jmx: %s\n", cliflag.OneLine(err.Error()))
	}
	return code
}

// importJMX does the work of runImportJMX and returns the exit code with
// the error to print, if any.
func importJMX(o *importJMXOptions, path string, stdout, stderr io.Writer) (int, error) {
	p, warns, err := jmx.ImportFile(path)
	if err != nil {
		return exitUsage, err
	}
	// --set errors first, so that bad usage is one line on stderr.
	if err := p.SetAll(o.sets); err != nil {
		return exitUsage, err
	}
	for _, w := range warns {
		fmt.Fprintf(stderr, "vesload import-jmx: warning: %s\n", w.String())
	}
	out, err := jmx.RenderLoadable(p, filepath.Base(path), warns)
	if err != nil {
		return exitRun, err
	}
	dest := "stdout"
	switch o.output {
	case "", "-":
		if _, err := stdout.Write(out); err != nil {
			return exitRun, fmt.Errorf("write profile: %w", err)
		}
	default:
		err := resultfile.WriteFile(o.output, func(w io.Writer) error {
			_, err := w.Write(out)
			return err
		})
		if err != nil {
			return exitRun, fmt.Errorf("write profile %s: %w", o.output, err)
		}
		dest = o.output
	}
	fmt.Fprintf(stderr, "vesload import-jmx: %s\n", jmx.Summary(p, len(warns), dest))
	return exitOK, nil
}
