//go:build !race

package loadgen

// raceEnabled says the race detector is on (see race_test.go).
const raceEnabled = false
