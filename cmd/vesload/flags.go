package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/profiles"
)

// newFlagSet returns a flag set that reports errors instead of exiting, so
// that every bad flag becomes one line and exit code 2.
func newFlagSet(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args after rewriting single-dash long names
// (-rps 100) into pflag's double-dash form (--rps 100), so both spellings
// that the CLI contract promises work. A one-letter shorthand (-o, -H)
// is left alone. It returns errHelp when help was asked for.
func parseFlags(fs *pflag.FlagSet, args []string) error {
	norm := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			norm = append(norm, args[i:]...)
			break
		}
		norm = append(norm, normaliseDash(fs, a))
	}
	err := fs.Parse(norm)
	if errors.Is(err, pflag.ErrHelp) {
		return errHelp
	}
	if err != nil {
		return fmt.Errorf("%s: %w%s", fs.Name(), err, didYouMean(fs, err))
	}
	return nil
}

// didYouMean names the flag an unknown one is probably a typo of:
// " (did you mean --rps?)", or "".
func didYouMean(fs *pflag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if s := profiles.Suggest(name, names); s != "" {
		return " (did you mean --" + s + "?)"
	}
	return ""
}

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

// errHelp says that usage was printed on request: exit 0, not 2.
var errHelp = errors.New("help requested")

func normaliseDash(fs *pflag.FlagSet, arg string) string {
	if len(arg) < 3 || arg[0] != '-' || arg[1] == '-' {
		return arg
	}
	name := arg[1:]
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	if len(name) > 1 && (fs.Lookup(name) != nil || name == "help") {
		return "-" + arg
	}
	// A single-dash word that starts with no shorthand (-rpss) is a
	// misspelt long flag: pflag would report "unknown shorthand flag: 'r'",
	// which names neither what was typed nor what was meant.
	if len(name) > 1 && isLetter(name[0]) && fs.ShorthandLookup(name[:1]) == nil {
		return "-" + arg
	}
	return arg
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// printUsage writes the flag defaults of fs under a one-line synopsis.
func printUsage(w io.Writer, synopsis string, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n\nFlags:\n%s", synopsis, fs.FlagUsages())
}
