// Command vesload is an open-model load generator for ONAP VES collectors.
//
// This package is the command line only: it parses flags, picks a
// subcommand and turns errors into one line and an exit code. The load
// logic lives in loadgen, the renderings in report.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/vesload/vesload/internal/cliflag"
	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/table"
	"github.com/vesload/vesload/report/verdict"
)

// Exit codes are part of the CLI contract (docs/ARCHITECTURE.md, "The command line"): scripts rely on them.
const (
	exitOK          = verdict.ExitOK          // done, every threshold passed
	exitRun         = 1                       // could not run: preflight, I/O
	exitUsage       = 2                       // bad usage or bad input file
	exitThreshold   = verdict.ExitFailed      // a threshold or a built-in rule failed
	exitInterrupted = verdict.ExitInterrupted // stopped by a signal; the result was still written
)

// fail prints err as the one line a failed command gives, after prefix
// (its name: "vesload: report"), and returns the exit code: exitUsage
// for bad usage (isUsage), exitThreshold for a target that refuses every
// request (its preflight failed: the run would have failed its built-in
// rule), else exitRun. The subcommands end their errors here so that the
// rule is one place.
func fail(stderr io.Writer, prefix string, err error) int {
	fmt.Fprintf(stderr, "%s: %s\n", prefix, table.EscapeControlLines(err.Error())) // errors quote what files hold

	switch {
	case isUsage(err):
		return exitUsage
	case errors.As(err, new(*transport.RefusedError)):
		return exitThreshold
	}
	return exitRun
}

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// command is one subcommand: it gets its arguments and the standard
// streams and returns the process exit code.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"run", "run a load test (the default when no subcommand is given)", runRun},
		{"serve", "run the built-in VES collector emulator", runServe},
		{"capacity", "find the highest rate a collector holds within its SLOs", runCapacity},
		{"hv", "load an HV-VES collector with WTP/protobuf producers over TCP or TLS", runHV},
		{"profiles", "list the built-in profiles, show one, check profile files", runProfiles},
		{"import-jmx", "convert a JMeter plan (.jmx) into a profile", runImportJMX},
		{"report", "re-render a saved result (text, json, html, junit, csv, markdown)", runReport},
		{"compare", "compare runs of two builds with statistics (A/B)", runCompare},
		{"trend", "find where performance changed over a history of runs, and gate CI on it", runTrend},
		{"consume", "follow one run's events on the output topic, beside its generators, for merge", runConsume},
		{"merge", "merge the results of generators that ran in parallel", runMerge},
		{"kube", "render the Kubernetes manifests that run a test as N shards", runKube},
		{"probe", "measure the link to a target: connect, TLS, round trip, bulk throughput", runProbe},
		{"version", "print the version", runVersion},
	}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch picks the subcommand named by the first argument, or "run"
// when the first argument is a flag or absent.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			if len(args) > 1 && args[0] == "help" {
				return helpFor(args[1], stdout, stderr)
			}
			printCommands(stdout)
			return exitOK
		case "--version", "-version":
			return runVersion(nil, stdout, stderr)
		}
		for _, c := range commands() {
			if args[0] == c.name {
				return c.run(args[1:], stdout, stderr)
			}
		}
		if args[0] != "" && args[0][0] != '-' {
			return fail(stderr, "vesload", usagef("%s (see 'vesload help')", cliflag.UnknownCommand(args[0], commandNames())))
		}
	}
	return runRun(args, stdout, stderr)
}

// helpFor prints the help of one command ("vesload help run"), which is
// what "vesload run --help" prints.
func helpFor(name string, stdout, stderr io.Writer) int {
	for _, c := range commands() {
		if c.name == name {
			return c.run([]string{"--help"}, stdout, stderr)
		}
	}
	return fail(stderr, "vesload", usagef("%s (see 'vesload help')", cliflag.UnknownCommand(name, commandNames())))
}

// commandNames are the subcommands' names, for "did you mean".
func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return append(names, "help")
}

func printCommands(w io.Writer) {
	fmt.Fprintln(w, "vesload: an open-model load generator for ONAP VES collectors")
	fmt.Fprintln(w, "\nUsage: vesload [command] [flags]")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'vesload COMMAND --help' for the flags of one command.")
}

func runVersion(_ []string, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "vesload %s\n", version)
	return exitOK
}
