package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/report"
)

// streams are the outputs written while the run goes on: the per-request
// JTL file and the per-second HdrHistogram log. They are fed from the
// engine's recorder goroutine, never from the request path.
type streams struct {
	files []*os.File
	bufs  []*bufio.Writer
	jtl   *report.JTLWriter
	hdr   *report.HdrLog
	err   error // the first write error; reported after the run
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

// hook adds the streams to the engine's hooks, keeping any already set.
func (s *streams) hook(h *loadgen.Hooks, label string) {
	if s.jtl != nil {
		prev := h.Request
		h.Request = func(ev loadgen.RequestEvent) {
			if prev != nil {
				prev(ev)
			}
			if s.err == nil {
				s.err = s.jtl.Write(report.JTLSample{
					Start: ev.Due, Elapsed: ev.Latency, Service: ev.Service, Label: label,
					Code: ev.Code, Outcome: ev.Outcome, BytesRecv: ev.BytesRecv, BytesSent: ev.BytesSent,
				})
			}
		}
	}
	if s.hdr != nil {
		h.Interval = func(start, end time.Time, lat *hdrhistogram.Histogram) {
			if s.err == nil {
				s.err = s.hdr.Interval(start, end, lat)
			}
		}
	}
}

// close flushes and closes every file and returns the first error met.
func (s *streams) close() error {
	errs := []error{s.err}
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
