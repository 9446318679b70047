package main

import (
	"bufio"
	"fmt"
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/observe"
	"github.com/vesload/vesload/report"
)

// streams are the files written while the run goes on: the per-request
// JTL file and the per-second HdrHistogram log, each fed by an observer
// that queues its events and writes them from a goroutine of its own. A
// stream that fails stops alone: the run, its result and every other
// output go on, and the result says what the stream wrote.
type streams struct {
	jtlPath, hdrPath string
	files            []*report.Stream
	jtlw             *report.JTLWriter
	hdr              *report.HdrLog
	hdrBuf           *bufio.Writer
	jtl              *observe.JTL
	hlog             *observe.HdrLog
}

// openStreams creates the requested files before the run, so that an
// unwritable path fails at once (exit 1) rather than after ten minutes.
func openStreams(jtlPath, hdrPath, url string, start time.Time) (*streams, error) {
	s := &streams{jtlPath: jtlPath, hdrPath: hdrPath}
	if jtlPath != "" {
		f, err := report.CreateStream(jtlPath)
		if err != nil {
			return nil, fmt.Errorf("--jtl: %w", err)
		}
		s.files = append(s.files, f)
		if s.jtlw, err = report.NewJTLWriter(f, url); err != nil {
			s.close()
			return nil, fmt.Errorf("--jtl: %w", err)
		}
	}
	if hdrPath != "" {
		f, err := report.CreateStream(hdrPath)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("--hdr-log: %w", err)
		}
		s.files = append(s.files, f)
		s.hdrBuf = bufio.NewWriter(f)
		if s.hdr, err = report.NewHdrLog(s.hdrBuf, start, "latency"); err != nil {
			s.close()
			return nil, fmt.Errorf("--hdr-log: %w", err)
		}
	}
	return s, nil
}

// observers starts the writers of the streams and returns their
// observers. The JTL labels every row label, or labels(seq) when set.
func (s *streams) observers(label string, labels func(seq int64) string) []loadgen.Observer {
	var out []loadgen.Observer
	if labels == nil {
		labels = func(int64) string { return label }
	}
	if s.jtlw != nil {
		s.jtl = observe.NewJTLLabels(s.jtlw, labels, "--jtl "+s.jtlPath)
		out = append(out, s.jtl)
	}
	if s.hdr != nil {
		s.hlog = observe.NewHdrLog(s.hdr, s.hdrBuf.Flush, "--hdr-log "+s.hdrPath)
		out = append(out, s.hlog)
	}
	return out
}

// close writes out what the streams hold, closes their files and returns
// a warning for each stream that did not write everything it was given.
// Call it once the engine has stopped.
func (s *streams) close() []string {
	var reports []observe.Report
	if s.jtl != nil {
		reports = append(reports, s.jtl.Close())
	}
	if s.hlog != nil {
		reports = append(reports, s.hlog.Close())
	}
	var warnings []string
	for _, r := range reports {
		if w := r.Warning(); w != "" {
			warnings = append(warnings, w)
		}
	}
	for _, f := range s.files {
		if err := f.Close(); err != nil {
			warnings = append(warnings, fmt.Sprintf("close %s: %v", f.Name(), err))
		}
	}
	s.files = nil
	return warnings
}
