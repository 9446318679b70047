//go:build !race

package engine

// raceEnabled says the race detector is on (see race_test.go).
const raceEnabled = false
