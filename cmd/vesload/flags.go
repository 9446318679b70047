package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/cliflag"
)

// The flag sets of every subcommand: single-dash long flags, one-line
// errors with a "did you mean", usage on request (package cliflag).
func newFlagSet(name string) *pflag.FlagSet                 { return cliflag.New(name) }
func parseFlags(fs *pflag.FlagSet, args []string) error     { return cliflag.Parse(fs, args) }
func printUsage(w io.Writer, syn string, fs *pflag.FlagSet) { cliflag.Usage(w, syn, fs) }

var errHelp = cliflag.ErrHelp

// parseCommand parses a subcommand's flags and answers what needs no
// further work: --help prints the usage (exit 0), a bad flag prints one
// line naming the command and the flag (exit 2). done is false when the
// command should go on with fs.Args().
func parseCommand(fs *pflag.FlagSet, args []string, synopsis string, stdout, stderr io.Writer) (code int, done bool) {
	err := parseFlags(fs, args)
	switch {
	case err == nil:
		return exitOK, false
	case errors.Is(err, errHelp):
		printUsage(stdout, synopsis, fs)
		return exitOK, true
	}
	fmt.Fprintf(stderr, "vesload %v\n", err)
	return exitUsage, true
}
