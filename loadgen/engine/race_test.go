//go:build race

package engine

// raceEnabled says the race detector is on: sync.Pool then drops a
// quarter of what is put back, so pooled buffers are allocated again and
// allocation counts measure the detector.
const raceEnabled = true
