// Package result holds the contract of vesload's result document: the
// types of the JSON a run writes (Result and its parts, field names fixed,
// fields only ever added), the standard HDR histogram geometry and its
// encoding, the figures derived from a result (error rate, the accounting
// invariant) and Tally, the one way requests are counted.
//
// It is a leaf: the engine writes these types, report renders them, and
// compare, merge and the thresholds read them, so it imports nothing of
// vesload and does no I/O, no rendering and no networking.
package result
