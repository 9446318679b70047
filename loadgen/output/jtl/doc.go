// Package jtl encodes a run's requests as JMeter's CSV results (JTL), one
// row per request without an allocation, for the JTL stream of a run
// (--jtl) and the tools that read JMeter's files.
//
// It must not open files, know the engine or decide what a row holds
// beyond JMeter's own definitions.
package jtl
