package dryrun

import (
	"github.com/vesload/vesload/profiles"
	"github.com/vesload/vesload/profiles/scenario"
)

// Target stands in for the built-in emulator's URL in a dry run, which
// starts no emulator.
const Target = "http://127.0.0.1:8080/eventListener/v7"

// Compile compiles sc as `vesload run` would, without its preflight: a
// dry run connects to nothing. A profile that names no target (a run
// against the built-in emulator) is compiled against Target, and
// emulated says so, for Options.Emulated.
func Compile(sc *profiles.Profile, so scenario.Options) (plan *scenario.Plan, emulated bool, err error) {
	emulated = sc.Target.URL == ""
	if emulated {
		sc.Target.URL = Target
	}
	so.NoPreflight = true
	plan, err = scenario.Compile(sc, so)
	return plan, emulated, err
}
