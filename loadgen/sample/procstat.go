package sample

import "time"

import "context"

// procStat is what one reading takes of one process.
type procStat struct {
	user, system float64 // CPU seconds
	minor, major uint64  // page faults since the process started
	rss, vms     uint64  // bytes
	// anon is the resident memory not backed by a file (heap, stacks):
	// the memory a process grows, where rss also counts the shared,
	// reclaimable pages of its binary and libraries. 0 when unknown.
	anon    uint64
	threads int32
	// start tells one process from a later one that reuses its pid (its
	// creation time in milliseconds); 0 when the source cannot say.
	start uint64
	// dead marks a process that has exited but is still listed (a
	// zombie).
	dead bool
	// at is when the CPU times were read, so that the CPU share is
	// their change over the time between two reads, not over the time
	// between the instants the caller passed (a busy machine can hold a
	// reading up for seconds after its instant was taken). Zero when the
	// source cannot say: the sampler's instants are used.
	at time.Time
}

// zombie reports a process that has exited but was not yet reaped by its
// parent: the kernel keeps its entry but it owns no memory any more.
func (st procStat) zombie() bool {
	return st.dead || (st.rss == 0 && st.vms == 0)
}

// procReader reads the processes of the operating system: gopsutil in
// the program (procs.go), fixtures in tests.
type procReader interface {
	// pids lists the running processes.
	pids(ctx context.Context) ([]int32, error)
	// stat reads one process's counters.
	stat(ctx context.Context, pid int32) (procStat, error)
	// name is the process name as ps -o comm and pgrep know it.
	name(ctx context.Context, pid int32) (string, error)
	// gone tells an exited process from a failure to read a live one.
	gone(ctx context.Context, pid int32) bool
	// memTotal is the machine's memory in bytes.
	memTotal(ctx context.Context) (uint64, error)
}
