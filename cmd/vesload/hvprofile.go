package main

import (
	"github.com/vesload/vesload/internal/cliflag"
	"github.com/vesload/vesload/profiles"
)

// hvProfile reports whether args name, with -profile, a profile of the
// HV-VES protocol. Any other case (no profile, one that does not load) is
// left to the run command, which reports it.
func hvProfile(args []string) bool {
	name := cliflag.LastValue(args, "profile")
	if name == "" {
		return false
	}
	p, err := profiles.Load(name)
	return err == nil && p.Protocol == profiles.ProtocolHVVES
}
