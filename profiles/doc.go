// Package profiles owns scenario files: the YAML profile format (target,
// pool and timeouts, load shape, request mix, samplers, thresholds and
// variables), its strict decoder with file:line:column errors, the
// built-in profiles embedded in the binary, and the arrival-rate segments
// of the open load shapes (Shape.Open), which the command line hands to the
// engine's schedule.
//
// It must not send traffic, start timers, read the clock, parse thresholds
// or build event bodies: a Profile is plain data that the sub-package
// scenario compiles into the engine's configuration. It never holds a
// password: credentials are referenced by file or environment variable and
// read by scenario. It reads body files only to learn their ${NAME}
// variables (ScanBodyFiles).
//
// The sub-package jmx converts JMeter test plans into profiles.
package profiles
