package sample

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// scan lists the running processes and starts tracking those whose name
// is wanted. Pids already known not to match are not read again until
// they disappear, so a rescan costs one directory listing plus one small
// read per new process.
func (s *processSampler) scan(ctx context.Context, now time.Time) error {
	pids, err := process.PidsWithContext(ctx)
	if err != nil {
		return fmt.Errorf("list processes: %w", err)
	}
	present := make(map[int32]struct{}, len(pids))
	for _, pid := range pids {
		present[pid] = struct{}{}
		if _, ok := s.procs[pid]; ok {
			continue
		}
		if _, ok := s.skip[pid]; ok || pid == s.self {
			continue
		}
		s.consider(ctx, pid)
	}
	for pid := range s.skip {
		if _, ok := present[pid]; !ok {
			delete(s.skip, pid)
		}
	}
	s.lastScan = now
	return nil
}

// consider tracks pid when its name is wanted and remembers it otherwise.
func (s *processSampler) consider(ctx context.Context, pid int32) {
	p, err := process.NewProcessWithContext(ctx, pid)
	if err != nil {
		return // exited between the listing and now
	}
	name, err := p.NameWithContext(ctx)
	if err != nil || !slices.Contains(s.names, name) {
		s.skip[pid] = struct{}{}
		return
	}
	s.procs[pid] = &tracked{proc: p}
}
