package sample

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// commLen is the longest process name the kernel keeps (TASK_COMM_LEN
// minus the terminating NUL); longer names are cut to it.
const commLen = 15

// procFS reads processes from a procfs tree: /proc on Linux, a directory
// of fixtures in tests. It needs no cgo and links nothing beyond the
// standard library.
type procFS struct {
	root string
	// ticks is the unit of the CPU times in stat: USER_HZ, clock ticks per
	// second (100 on every architecture Go supports).
	ticks float64
	// pageSize converts stat's resident pages to bytes.
	pageSize uint64
}

// pids implements procReader: every directory of root named by a number.
func (p procFS) pids(context.Context) ([]int32, error) {
	d, err := os.Open(p.root)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p.root, err)
	}
	pids := make([]int32, 0, len(names))
	for _, n := range names {
		if pid, err := strconv.ParseInt(n, 10, 32); err == nil && pid > 0 && n[0] != '+' {
			pids = append(pids, int32(pid))
		}
	}
	return pids, nil
}

// stat implements procReader from /proc/PID/stat alone: one small read
// gives the CPU times, page faults, memory and threads.
func (p procFS) stat(_ context.Context, pid int32) (procStat, error) {
	return p.statFile(filepath.Join(p.root, strconv.Itoa(int(pid)), "stat"))
}

// statFile reads and converts one stat file (also /proc/self/stat).
func (p procFS) statFile(path string) (procStat, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return procStat{}, err
	}
	f, err := parseStat(b)
	if err != nil {
		return procStat{}, fmt.Errorf("%s: %w", path, err)
	}
	return f.procStat(p.ticks, p.pageSize), nil
}

// name implements procReader like gopsutil and pgrep do: the kernel's
// comm, and when that is cut to 15 characters, the base name of the
// command's first argument if it starts with them, so that a long name
// given to --target-process still matches.
func (p procFS) name(_ context.Context, pid int32) (string, error) {
	dir := filepath.Join(p.root, strconv.Itoa(int(pid)))
	b, err := os.ReadFile(filepath.Join(dir, "comm"))
	if err != nil {
		return "", err
	}
	comm, err := parseComm(b)
	if err != nil {
		return "", fmt.Errorf("%s/comm: %w", dir, err)
	}
	if len(comm) < commLen {
		return comm, nil
	}
	cmdline, err := os.ReadFile(filepath.Join(dir, "cmdline"))
	if err != nil {
		return comm, nil // a kernel thread or an exiting process: comm is all there is
	}
	if long := cmdlineName(cmdline); strings.HasPrefix(long, comm) {
		return long, nil
	}
	return comm, nil
}

// gone implements procReader: the process's directory has disappeared.
func (p procFS) gone(_ context.Context, pid int32) bool {
	_, err := os.Stat(filepath.Join(p.root, strconv.Itoa(int(pid))))
	return errors.Is(err, fs.ErrNotExist)
}

// memTotal implements procReader from meminfo's MemTotal.
func (p procFS) memTotal(context.Context) (uint64, error) {
	path := filepath.Join(p.root, "meminfo")
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, err := parseMemTotal(b)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// statFields are the fields of /proc/PID/stat the samplers use, in the
// kernel's units (proc(5)).
type statFields struct {
	comm      string
	state     byte
	minflt    uint64 // field 10
	majflt    uint64 // field 12
	utime     uint64 // field 14, clock ticks
	stime     uint64 // field 15, clock ticks
	threads   int64  // field 20
	starttime uint64 // field 22, clock ticks after boot
	vsize     uint64 // field 23, bytes
	rss       uint64 // field 24, pages
}

// procStat converts the fields to seconds and bytes.
func (f statFields) procStat(ticks float64, pageSize uint64) procStat {
	return procStat{
		user:    float64(f.utime) / ticks,
		system:  float64(f.stime) / ticks,
		minor:   f.minflt,
		major:   f.majflt,
		rss:     f.rss * pageSize,
		vms:     f.vsize,
		threads: int32(min(f.threads, 1<<31-1)),
		start:   f.starttime,
		dead:    f.state == 'Z' || f.state == 'X',
	}
}

// statAfterComm is how many fields after the comm parseStat needs: the
// state (field 3) through rss (field 24).
const statAfterComm = 22

// parseStat parses one /proc/PID/stat line. The comm in parentheses may
// hold spaces and parentheses itself, so the fields are counted from the
// last ')' of the line.
func parseStat(b []byte) (statFields, error) {
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return statFields{}, errors.New("stat: no (comm)")
	}
	fields := bytes.Fields(b[end+1:])
	if len(fields) < statAfterComm {
		return statFields{}, fmt.Errorf("stat: %d fields after the comm, want at least %d", len(fields), statAfterComm)
	}
	if len(fields[0]) != 1 {
		return statFields{}, fmt.Errorf("stat: state %q is not one letter", fields[0])
	}
	f := statFields{comm: string(b[open+1 : end]), state: fields[0][0]}
	// Indexes count from the state, field 3 of proc(5).
	for _, u := range []struct {
		to  *uint64
		idx int
	}{
		{&f.minflt, 7}, {&f.majflt, 9}, {&f.utime, 11}, {&f.stime, 12},
		{&f.starttime, 19}, {&f.vsize, 20}, {&f.rss, 21},
	} {
		v, err := strconv.ParseUint(string(fields[u.idx]), 10, 64)
		if err != nil {
			return statFields{}, fmt.Errorf("stat field %d: %w", u.idx+3, err)
		}
		*u.to = v
	}
	threads, err := strconv.ParseInt(string(fields[17]), 10, 64)
	if err != nil || threads < 0 {
		return statFields{}, fmt.Errorf("stat field 20: threads %q", fields[17])
	}
	f.threads = threads
	return f, nil
}

// parseComm parses /proc/PID/comm: the name and a newline.
func parseComm(b []byte) (string, error) {
	name, ok := bytes.CutSuffix(b, []byte("\n"))
	if !ok {
		return "", errors.New("comm: no final newline")
	}
	if len(name) == 0 || len(name) > commLen {
		return "", fmt.Errorf("comm: %d bytes, want 1..%d", len(name), commLen)
	}
	return string(name), nil
}

// cmdlineName is the base name of the first argument in a
// /proc/PID/cmdline (arguments end with NUL), or "" when there is none.
func cmdlineName(b []byte) string {
	arg, _, _ := bytes.Cut(b, []byte{0})
	if len(arg) == 0 {
		return ""
	}
	return filepath.Base(string(arg))
}

// parseMemTotal finds "MemTotal: N kB" in /proc/meminfo and returns bytes.
func parseMemTotal(b []byte) (uint64, error) {
	for line := range bytes.Lines(b) {
		rest, ok := bytes.CutPrefix(line, []byte("MemTotal:"))
		if !ok {
			continue
		}
		fields := bytes.Fields(rest)
		if len(fields) != 2 || string(fields[1]) != "kB" {
			return 0, fmt.Errorf("meminfo: MemTotal line %q, want a number of kB", bytes.TrimSpace(line))
		}
		kb, err := strconv.ParseUint(string(fields[0]), 10, 64)
		if err != nil || kb == 0 || kb > 1<<54 {
			return 0, fmt.Errorf("meminfo: MemTotal %q kB", fields[0])
		}
		return kb << 10, nil
	}
	return 0, errors.New("meminfo: no MemTotal line")
}
