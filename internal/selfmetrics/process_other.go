//go:build !linux

package selfmetrics

import "github.com/vesload/vesload/internal/promtext"

// writeProcess writes nothing where there is no /proc: the process_*
// series are left out rather than published as zeros.
func writeProcess(*promtext.Writer) {}
