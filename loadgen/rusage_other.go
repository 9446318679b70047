//go:build !unix

package loadgen

import "time"

// processCPU is not measured where getrusage does not exist: the result
// then reports no generator CPU rather than a wrong one.
func processCPU() time.Duration { return 0 }

// peakRSS is not measured where getrusage does not exist.
func peakRSS() int64 { return 0 }
