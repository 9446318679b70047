// Package proc parses the text files of Linux's /proc that vesload reads
// about processes and the machine: /proc/PID/stat, comm and cmdline, the
// sizes of /proc/PID/status, and /proc/meminfo. It holds pure parsers of bytes, so they are tested and
// fuzzed on every system, and links nothing beyond the standard library:
// the process libraries it replaces (gopsutil, prometheus/procfs) cost
// the binary resident memory (docs/ARCHITECTURE.md, Measurements: Resources).
//
// It must not read files or decide what to sample: callers read the files
// (loadgen/sample) and hand the bytes over.
package proc

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
)

// CommLen is the longest process name the kernel keeps (TASK_COMM_LEN
// minus the terminating NUL); longer names are cut to it in stat and comm.
const CommLen = 15

// UserHZ is the clock tick of the CPU times in /proc on every Linux
// architecture Go supports; ClockTicks reads the kernel's own figure.
const UserHZ = 100

// Stat holds the fields of /proc/PID/stat that vesload uses, in the
// kernel's units; the numbers are the fields of proc(5).
type Stat struct {
	Comm      string // 2: the name, cut to CommLen
	State     byte   // 3: R, S, D, Z (zombie), X (dead), …
	MinFlt    uint64 // 10: minor page faults
	MajFlt    uint64 // 12: major page faults
	UTime     uint64 // 14: user CPU time, clock ticks
	STime     uint64 // 15: system CPU time, clock ticks
	Threads   int64  // 20
	StartTime uint64 // 22: clock ticks after boot; tells a reused pid apart
	VSize     uint64 // 23: virtual memory, bytes
	RSS       uint64 // 24: resident memory, pages
}

// Exited reports a process that has exited but is still listed: a zombie
// not yet reaped by its parent, or one being torn down.
func (s Stat) Exited() bool { return s.State == 'Z' || s.State == 'X' }

// statAfterComm is how many fields after the comm ParseStat needs: the
// state (field 3) through rss (field 24).
const statAfterComm = 22

// ParseStat parses one /proc/PID/stat line. The comm in parentheses may
// hold spaces and parentheses itself, so the fields are counted from the
// last ')' of the line.
func ParseStat(b []byte) (Stat, error) {
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return Stat{}, errors.New("stat: no (comm)")
	}
	fields := bytes.Fields(b[end+1:])
	if len(fields) < statAfterComm {
		return Stat{}, fmt.Errorf("stat: %d fields after the comm, want at least %d", len(fields), statAfterComm)
	}
	if len(fields[0]) != 1 {
		return Stat{}, fmt.Errorf("stat: state %q is not one letter", fields[0])
	}
	s := Stat{Comm: string(b[open+1 : end]), State: fields[0][0]}
	// Indexes count from the state, field 3 of proc(5).
	for _, u := range []struct {
		to  *uint64
		idx int
	}{
		{&s.MinFlt, 7}, {&s.MajFlt, 9}, {&s.UTime, 11}, {&s.STime, 12},
		{&s.StartTime, 19}, {&s.VSize, 20}, {&s.RSS, 21},
	} {
		v, err := strconv.ParseUint(string(fields[u.idx]), 10, 64)
		if err != nil {
			return Stat{}, fmt.Errorf("stat field %d: %w", u.idx+3, err)
		}
		*u.to = v
	}
	threads, err := strconv.ParseInt(string(fields[17]), 10, 64)
	if err != nil || threads < 0 {
		return Stat{}, fmt.Errorf("stat field 20: threads %q", fields[17])
	}
	s.Threads = threads
	return s, nil
}

// ParseComm parses /proc/PID/comm: the name and a newline.
func ParseComm(b []byte) (string, error) {
	name, ok := bytes.CutSuffix(b, []byte("\n"))
	if !ok {
		return "", errors.New("comm: no final newline")
	}
	if len(name) == 0 || len(name) > CommLen {
		return "", fmt.Errorf("comm: %d bytes, want 1..%d", len(name), CommLen)
	}
	return string(name), nil
}

// CmdlineName is the base name of the first argument in a
// /proc/PID/cmdline (arguments end with NUL), or "" when there is none,
// as for a kernel thread. It completes a comm cut to CommLen.
func CmdlineName(b []byte) string {
	arg, _, _ := bytes.Cut(b, []byte{0})
	if len(arg) == 0 {
		return ""
	}
	return filepath.Base(string(arg))
}

// ParseMemTotal finds "MemTotal: N kB" in /proc/meminfo and returns bytes.
func ParseMemTotal(b []byte) (uint64, error) {
	n, err := FieldKB(b, "MemTotal")
	switch {
	case err != nil:
		return 0, fmt.Errorf("meminfo: %w", err)
	case n == 0:
		return 0, errors.New(`meminfo: MemTotal "0" kB`)
	}
	return n, nil
}

// FieldKB finds the line "key: N kB" of a /proc file that states sizes that
// way (/proc/meminfo, /proc/PID/status: VmHWM, VmRSS, …) and returns N in
// bytes.
func FieldKB(b []byte, key string) (uint64, error) {
	for line := range bytes.Lines(b) {
		rest, ok := bytes.CutPrefix(line, []byte(key))
		if !ok || len(rest) == 0 || rest[0] != ':' {
			continue
		}
		fields := bytes.Fields(rest[1:])
		if len(fields) != 2 || string(fields[1]) != "kB" {
			return 0, fmt.Errorf("%s line %q, want a number of kB", key, bytes.TrimSpace(line))
		}
		kb, err := strconv.ParseUint(string(fields[0]), 10, 64)
		if err != nil || kb > 1<<54 {
			return 0, fmt.Errorf("%s %q kB", key, fields[0])
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no %s line", key)
}
