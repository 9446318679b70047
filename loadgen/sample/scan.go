package sample

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// scan lists the running processes and starts tracking those whose name
// is wanted. Pids already known not to match are not read again until
// they disappear, so a rescan costs one directory listing plus one small
// read per new process.
func (s *processSampler) scan(ctx context.Context, now time.Time) error {
	pids, err := s.procs.pids(ctx)
	if err != nil {
		return fmt.Errorf("list processes: %w", err)
	}
	present := make(map[int32]struct{}, len(pids))
	for _, pid := range pids {
		present[pid] = struct{}{}
		if _, ok := s.tracked[pid]; ok {
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
// A process that exited between the listing and now is left alone: it is
// not an error.
func (s *processSampler) consider(ctx context.Context, pid int32) {
	name, err := s.procs.name(ctx, pid)
	if err != nil {
		if !s.procs.gone(ctx, pid) {
			s.skip[pid] = struct{}{} // unreadable: not worth trying every scan
		}
		return
	}
	if !slices.Contains(s.names, name) {
		s.skip[pid] = struct{}{}
		return
	}
	s.tracked[pid] = &tracked{name: name}
}
