// Package scenario compiles a scenario into a run: a profile (loaded from
// a file or a built-in, with the command line's flags already laid over
// it) plus its --set variables becomes the engine's engine.Config and
// the redacted description of the run that the result document carries
// (report.RunConfig). See docs/ARCHITECTURE.md for where it sits in the
// pipeline.
//
// Resolve binds the variables and checks the scenario; Compile turns a
// resolved scenario into a Plan. Both fail before anything is sent, with
// one line that names the profile's source, on every problem a run would
// otherwise meet later or hide: a variable without a value (in a body
// file too), a password that is not there, a shape that schedules nothing.
//
// It must not parse flags, send traffic, start the emulator or print: the
// command line does those, and maps every error from here to exit code 2.
package scenario
