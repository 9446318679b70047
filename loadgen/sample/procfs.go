package sample

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/vesload/vesload/internal/proc"
)

// procFS reads processes from a procfs tree: /proc on Linux, a directory
// of fixtures in tests, parsing its files with internal/proc. It needs no
// cgo and links nothing beyond the standard library.
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
	f, err := proc.ParseStat(b)
	if err != nil {
		return procStat{}, fmt.Errorf("%s: %w", path, err)
	}
	return fromStat(f, p.ticks, p.pageSize), nil
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
	comm, err := proc.ParseComm(b)
	if err != nil {
		return "", fmt.Errorf("%s/comm: %w", dir, err)
	}
	if len(comm) < proc.CommLen {
		return comm, nil
	}
	cmdline, err := os.ReadFile(filepath.Join(dir, "cmdline"))
	if err != nil {
		return comm, nil // a kernel thread or an exiting process: comm is all there is
	}
	if long := proc.CmdlineName(cmdline); strings.HasPrefix(long, comm) {
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
	n, err := proc.ParseMemTotal(b)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// fromStat converts stat's fields to seconds and bytes.
func fromStat(f proc.Stat, ticks float64, pageSize uint64) procStat {
	return procStat{
		user:    float64(f.UTime) / ticks,
		system:  float64(f.STime) / ticks,
		minor:   f.MinFlt,
		major:   f.MajFlt,
		rss:     f.RSS * pageSize,
		vms:     f.VSize,
		threads: int32(min(f.Threads, 1<<31-1)),
		start:   f.StartTime,
		dead:    f.Exited(),
	}
}
