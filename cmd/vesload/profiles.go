package main

import (
	"fmt"
	"io"

	"github.com/vesload/vesload/internal/cliflag"
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

const profilesSynopsis = `vesload profiles                 list the built-in profiles
       vesload profiles show NAME       print a built-in profile's YAML, to copy and edit
       vesload profiles check FILE...   check profile files, printing "ok" or the first problem`

// runProfiles lists, prints and checks profiles: the built-ins are the
// starting point of most scenarios, so they must be easy to see and copy.
func runProfiles(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("profiles")
	if code, done := parseCommand(fs, args, profilesSynopsis, stdout, stderr); done {
		return code
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return listProfiles(stdout, stderr)
	}
	switch rest[0] {
	case "list":
		if len(rest) > 1 {
			return fail(stderr, "vesload profiles list", usagef("unexpected argument %q", rest[1]))
		}
		return listProfiles(stdout, stderr)
	case "show":
		return showProfile(rest[1:], stdout, stderr)
	case "check":
		return checkProfiles(rest[1:], stdout, stderr)
	}
	return fail(stderr, "vesload profiles", usagef("%s: want show NAME or check FILE (or nothing, to list the built-ins)", cliflag.UnknownCommand(rest[0], []string{"list", "show", "check"})))
}

// listProfiles writes the built-ins, one a line.
func listProfiles(stdout, stderr io.Writer) int {
	if err := profiles.WriteBuiltins(stdout); err != nil {
		return fail(stderr, "vesload profiles", fmt.Errorf("write: %w", err))
	}
	return exitOK
}

// showProfile prints the embedded YAML of one built-in, byte for byte, so
// `vesload profiles show NAME > my.yaml` gives an editable copy.
func showProfile(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		return fail(stderr, "vesload profiles show", usagef("name a built-in profile: %s", profiles.BuiltinNames()))
	case len(args) > 1:
		return fail(stderr, "vesload profiles show", usagef("unexpected argument %q: show takes one name", args[1]))
	}
	data, err := profiles.BuiltinYAML(args[0])
	if err != nil {
		return fail(stderr, "vesload profiles show", usagef("no built-in profile %q (built-ins: %s)", args[0], profiles.BuiltinNames()))
	}
	if _, err := stdout.Write(data); err != nil {
		return fail(stderr, "vesload profiles show", fmt.Errorf("write: %w", err))
	}
	return exitOK
}

// checkProfiles decodes and validates each file (or built-in name) as a
// run would, printing "ok  FILE" or the problem with its file:line:column
// first, as compilers do, so editors can jump to it.
func checkProfiles(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return fail(stderr, "vesload profiles check", usagef("name at least one profile file"))
	}
	code := exitOK
	for _, path := range args {
		line, err := scenario.CheckFile(path)
		switch {
		case err == nil:
			fmt.Fprintln(stdout, line)
			continue
		case scenario.Positioned(err):
			fmt.Fprintln(stderr, cliflag.OneLine(err.Error())) // file:line:column first
		default:
			fmt.Fprintf(stderr, "vesload profiles check: %s\n", cliflag.OneLine(err.Error()))
		}
		code = exitUsage
	}
	return code
}
