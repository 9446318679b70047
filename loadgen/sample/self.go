package sample

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime/metrics"
	"time"
)

// heapInUse are the runtime's memory classes whose sum is the Go heap in
// use: spans holding live and not yet swept objects, and their unused
// tails (MemStats.HeapInuse, read without stopping the world).
var heapInUse = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes"}

// schedLatencies is the runtime's histogram of how long goroutines waited,
// runnable, before a thread ran them: what a generator short of CPU (its
// own work, other processes, a hypervisor that did not run the machine)
// adds to every figure it times, whatever its CPU reading says.
const schedLatencies = "/sched/latencies:seconds"

// selfProcess is the process sampler on vesload's own pid, under the name
// "self", with the Go heap in use and the goroutines' wait to run added to
// each reading.
type selfProcess struct {
	Sampler
	heap  []metrics.Sample
	sched runWait
}

// Source implements Sampler.
func (*selfProcess) Source() string { return "self" }

// Sample implements Sampler.
func (s *selfProcess) Sample(ctx context.Context, now time.Time) (Reading, error) {
	r, err := s.Sampler.Sample(ctx, now)
	if err == nil {
		r.GoHeapBytes = goHeap(s.heap)
		r.SchedP99Ms = s.sched.p99Ms()
	}
	return r, err
}

// runWait reads the runtime's scheduling latencies and keeps the counts of
// its previous reading, so that each reading is of its own interval.
type runWait struct {
	sample [1]metrics.Sample
	prev   []uint64
	delta  []uint64
}

// newRunWait starts counting from now.
func newRunWait() runWait {
	w := runWait{sample: [1]metrics.Sample{{Name: schedLatencies}}}
	w.p99Ms()
	return w
}

// p99Ms is the 99th percentile of the goroutines' waits since the previous
// call, in milliseconds: the upper bound of the bucket that holds it (its
// lower bound for the last, unbounded bucket), 0 when none waited.
func (w *runWait) p99Ms() float64 {
	metrics.Read(w.sample[:])
	if w.sample[0].Value.Kind() != metrics.KindFloat64Histogram {
		return 0
	}
	return w.since(w.sample[0].Value.Float64Histogram())
}

// since is the p99 (ms) of the waits h, the runtime's running count, holds
// beyond the previous reading's, which it then replaces.
func (w *runWait) since(h *metrics.Float64Histogram) float64 {
	if len(w.prev) != len(h.Counts) {
		w.prev, w.delta = make([]uint64, len(h.Counts)), make([]uint64, len(h.Counts))
	}
	var total uint64
	for i, c := range h.Counts {
		w.delta[i] = c - w.prev[i]
		total += w.delta[i]
	}
	copy(w.prev, h.Counts)
	return bucketQuantile(w.delta, h.Buckets, total, 0.99) * 1000
}

// bucketQuantile is the upper bound of the bucket of counts (bounded by
// buckets, one more than counts) that holds quantile q of total; the last
// bucket's lower bound when its upper is infinite.
func bucketQuantile(counts []uint64, buckets []float64, total uint64, q float64) float64 {
	if total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i, c := range counts {
		if seen += c; seen >= rank {
			if hi := buckets[i+1]; !math.IsInf(hi, 1) {
				return hi
			}
			return max(buckets[i], 0)
		}
	}
	return 0
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
	return &selfProcess{Sampler: s, heap: heap, sched: newRunWait()}, nil
}
