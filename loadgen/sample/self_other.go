//go:build !linux

package sample

import (
	"fmt"
	"os"
)

// selfProcess presents the generic process sampler under the name "self".
type selfProcess struct{ Sampler }

// Source implements Sampler.
func (selfProcess) Source() string { return "self" }

// NewSelf samples vesload's own process, so that every report can say
// whether the generator or the target was the bottleneck. Outside Linux it
// reads the process through gopsutil.
func NewSelf() (Sampler, error) {
	s, err := NewProcess([]int32{int32(os.Getpid())}, nil)
	if err != nil {
		return nil, fmt.Errorf("self sampler: %w", err)
	}
	return selfProcess{s}, nil
}
