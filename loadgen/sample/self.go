package sample

import (
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"time"
)

// heapInUse are the runtime's memory classes whose sum is the Go heap in
// use: spans holding live and not yet swept objects, and their unused
// tails (MemStats.HeapInuse, read without stopping the world).
var heapInUse = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes"}

// selfProcess is the process sampler on vesload's own pid, under the name
// "self", with the Go heap in use added to each reading.
type selfProcess struct {
	Sampler
	heap []metrics.Sample
}

// Source implements Sampler.
func (*selfProcess) Source() string { return "self" }

// Sample implements Sampler.
func (s *selfProcess) Sample(ctx context.Context, now time.Time) (Reading, error) {
	r, err := s.Sampler.Sample(ctx, now)
	if err == nil {
		r.GoHeapBytes = goHeap(s.heap)
	}
	return r, err
}

// goHeap reads the Go heap in use into the reused samples.
func goHeap(buf []metrics.Sample) int64 {
	metrics.Read(buf)
	var n uint64
	for _, s := range buf {
		if s.Value.Kind() == metrics.KindUint64 {
			n += s.Value.Uint64()
		}
	}
	return int64(min(n, 1<<63-1))
}

// NewSelf samples vesload's own process, so that every report can say
// whether the generator or the target was the bottleneck: the one meter
// of the generator's CPU and memory, for REST and HV-VES runs alike. It
// is the process sampler on vesload's own pid (gopsutil, on every system,
// through one handle kept for the run: see ownProcs) and is primed here:
// the first Sample already has a CPU figure.
func NewSelf() (Sampler, error) {
	ctx := context.Background()
	pid := int32(os.Getpid())
	procs, err := newOwnProcs(ctx, pid)
	if err != nil {
		return nil, fmt.Errorf("self sampler: %w", err)
	}
	s := newProcessSampler(procs, []int32{pid}, nil, pid)
	if err := s.start(ctx, []int32{pid}, time.Now()); err != nil {
		return nil, fmt.Errorf("self sampler: %w", err)
	}
	heap := make([]metrics.Sample, len(heapInUse))
	for i, name := range heapInUse {
		heap[i].Name = name
	}
	return &selfProcess{Sampler: s, heap: heap}, nil
}
