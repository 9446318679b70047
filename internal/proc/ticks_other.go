//go:build !linux

package proc

// ClockTicks is UserHZ where there is no Linux /proc to read.
func ClockTicks() float64 { return UserHZ }
