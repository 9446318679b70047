package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/observe"
	"github.com/vesload/vesload/report"
)

// streams are the files written while the run goes on: the per-request
// JTL file and the per-second HdrHistogram log, each fed by an observer.
type streams struct {
	files []*os.File
	bufs  []*bufio.Writer
	jtl   *report.JTLWriter
	hdr   *report.HdrLog
	obs   []interface{ Err() error } // the observers writing them
}

// openStreams creates the requested files before the run, so that an
// unwritable path fails at once (exit 1) rather than after ten minutes.
func openStreams(jtlPath, hdrPath, url string, start time.Time) (*streams, error) {
	s := &streams{}
	if jtlPath != "" {
		f, err := os.Create(jtlPath)
		if err != nil {
			return nil, fmt.Errorf("--jtl: %w", err)
		}
		s.files = append(s.files, f)
		if s.jtl, err = report.NewJTLWriter(f, url); err != nil {
			s.close()
			return nil, fmt.Errorf("--jtl: %w", err)
		}
	}
	if hdrPath != "" {
		f, err := os.Create(hdrPath)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("--hdr-log: %w", err)
		}
		s.files = append(s.files, f)
		bw := bufio.NewWriter(f)
		s.bufs = append(s.bufs, bw)
		if s.hdr, err = report.NewHdrLog(bw, start, "latency"); err != nil {
			s.close()
			return nil, fmt.Errorf("--hdr-log: %w", err)
		}
	}
	return s, nil
}

// observers returns the observers that write the streams.
func (s *streams) observers(label string) []loadgen.Observer {
	var out []loadgen.Observer
	if s.jtl != nil {
		j := observe.NewJTL(s.jtl, label)
		s.obs = append(s.obs, j)
		out = append(out, j)
	}
	if s.hdr != nil {
		h := observe.NewHdrLog(s.hdr)
		s.obs = append(s.obs, h)
		out = append(out, h)
	}
	return out
}

// close flushes and closes every file and returns the first error met.
func (s *streams) close() error {
	var errs []error
	for _, o := range s.obs {
		errs = append(errs, o.Err())
	}
	if s.jtl != nil {
		errs = append(errs, s.jtl.Flush())
	}
	for _, b := range s.bufs {
		errs = append(errs, b.Flush())
	}
	for _, f := range s.files {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}
