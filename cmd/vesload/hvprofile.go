package main

import (
	"strings"

	"github.com/vesload/vesload/profiles"
)

// hvProfile reports whether args name, with -profile, a profile of the
// HV-VES protocol. Any other case (no profile, one that does not load) is
// left to the run command, which reports it.
func hvProfile(args []string) bool {
	name := profileArg(args)
	if name == "" {
		return false
	}
	p, err := profiles.Load(name)
	return err == nil && p.Protocol == profiles.ProtocolHVVES
}

// profileArg is the value of the last -profile flag in args, in any of
// its spellings (-profile X, --profile X, -profile=X, --profile=X).
func profileArg(args []string) string {
	name := ""
	for i, a := range args {
		if a == "--" {
			break
		}
		flag, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || flag != "profile" {
			continue
		}
		switch {
		case hasValue:
			name = value
		case i+1 < len(args):
			name = args[i+1]
		}
	}
	return name
}
