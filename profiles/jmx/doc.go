// Package jmx converts JMeter test plans (.jmx) into vesload profiles, so
// the plans people already run against the VES collector carry over: HTTP
// samplers, header and authorization managers, user-defined variables,
// thread groups and throughput timers become the target, request mix,
// variables and load shape of a profiles.Profile.
//
// It owns the reading of JMeter's XML and the translation rules. It must
// not run anything, write files or print: every element it cannot
// translate is returned as a Warning for the caller to show, and
// credentials are never copied into the profile (a password becomes a
// reference to an environment variable).
package jmx
