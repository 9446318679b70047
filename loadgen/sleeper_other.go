//go:build !linux

package loadgen

func newFineSleeper() fineSleeper { return nanoSleeper{} }
