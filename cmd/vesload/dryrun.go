package main

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/transport/rest"
	"github.com/vesload/vesload/profiles/scenario"
	"github.com/vesload/vesload/profiles/scenario/dryrun"
)

// dryRunOptions are the flags of a dry run: the run's own flags say what
// would be sent, these say how much of it to show.
type dryRunOptions struct {
	on       bool
	requests int
}

func addDryRunFlags(fs *pflag.FlagSet, d *dryRunOptions) {
	fs.BoolVar(&d.on, "dry-run", false, "send nothing: print the schedule and the first rendered requests, checked against the VES schemas (exit 2 when one is invalid)")
	fs.IntVar(&d.requests, "dry-run-requests", 3, "with --dry-run, how many rendered requests to print")
}

// dryRun prints what a run with o would send, without connecting to
// anything (profiles/scenario/dryrun), each request checked against the VES schema
// of its API version from schemaDir. It returns exitUsage when a
// rendered request is invalid.
func dryRun(o *runOptions, changed func(string) bool, runID, schemaDir string, stdout io.Writer) (int, error) {
	if o.dry.requests < 0 {
		return 0, usagef("--dry-run-requests %d: want 0 or more", o.dry.requests)
	}
	if err := checkNumbers(o); err != nil {
		return 0, err
	}
	sc, err := resolveScenario(o, changed)
	if err != nil {
		return 0, err
	}
	plan, emulated, err := dryrun.Compile(sc, scenario.Options{Version: version, RunID: runID})
	if err != nil {
		return 0, usage.Wrap(err)
	}
	tr, err := plan.Transport(&plan.Config) // builds the requests; connects to nothing
	if err != nil {
		return 0, usage.Wrap(err)
	}
	defer tr.Close()
	wire := tr.(*rest.Transport).WireHeaders
	invalid, err := dryrun.Print(stdout, plan, dryrun.Options{Requests: o.dry.requests, SchemaDir: schemaDir, Emulated: emulated, Wire: wire})
	if err != nil {
		return 0, err
	}
	if invalid > 0 {
		return exitUsage, nil
	}
	return exitOK, nil
}
