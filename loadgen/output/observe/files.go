package observe

import (
	"bufio"
	"fmt"
	"time"

	"github.com/vesload/vesload/loadgen/engine"
	"github.com/vesload/vesload/loadgen/output/hdrlog"
	"github.com/vesload/vesload/loadgen/output/jtl"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/resultfile"
)

// Stream names a file written while the run goes on: Option is the
// option that asked for it ("--jtl"), by which errors and warnings name
// it; an empty Path is no stream.
type Stream struct{ Option, Path string }

// Streams are the files written while the run goes on: the per-request
// JTL file and the per-second HdrHistogram log, each fed by an observer
// that queues its events and writes them from a goroutine of its own
// (JTL, HdrLog). A stream that fails stops alone: the run, its result and
// every other output go on, and Close says what the stream wrote.
type Streams struct {
	jtlName, hdrName string
	files            []*resultfile.Stream
	jtlw             *jtl.Writer
	hdr              *hdrlog.Log
	hdrBuf           *bufio.Writer
	jtl              *JTL
	hlog             *HdrLog
	lost             []result.OutputLoss // filled by Close
}

// OpenStreams creates the files before the run, so that an unwritable
// path fails at once rather than after ten minutes. url is the target the
// JTL rows name; start is the HdrHistogram log's base time.
func OpenStreams(rows, hdr Stream, url string, start time.Time) (*Streams, error) {
	s := &Streams{jtlName: rows.Option + " " + rows.Path, hdrName: hdr.Option + " " + hdr.Path}
	if rows.Path != "" {
		f, err := resultfile.CreateStream(rows.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rows.Option, err)
		}
		s.files = append(s.files, f)
		if s.jtlw, err = jtl.NewWriter(f, url); err != nil {
			s.Close()
			return nil, fmt.Errorf("%s: %w", rows.Option, err)
		}
	}
	if hdr.Path != "" {
		f, err := resultfile.CreateStream(hdr.Path)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("%s: %w", hdr.Option, err)
		}
		s.files = append(s.files, f)
		s.hdrBuf = bufio.NewWriter(f)
		if s.hdr, err = hdrlog.New(s.hdrBuf, start, "latency"); err != nil {
			s.Close()
			return nil, fmt.Errorf("%s: %w", hdr.Option, err)
		}
	}
	return s, nil
}

// Observers starts the writers of the streams and returns their
// observers. The JTL labels every row label, or labels(seq) when set
// (HV-VES: the producer's source name).
func (s *Streams) Observers(label string, labels func(seq int64) string) []engine.Observer {
	var out []engine.Observer
	if labels == nil {
		labels = func(int64) string { return label }
	}
	if s.jtlw != nil {
		s.jtl = NewJTLLabels(s.jtlw, labels, s.jtlName)
		out = append(out, s.jtl)
	}
	if s.hdr != nil {
		s.hlog = NewHdrLog(s.hdr, s.hdrBuf.Flush, s.hdrName)
		out = append(out, s.hlog)
	}
	return out
}

// Close writes out what the streams hold, closes their files and returns
// a warning for each stream that did not write everything it was given.
// Call it once the engine has stopped.
func (s *Streams) Close() []string {
	var reports []Report
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
		if l := r.Loss(); l != nil {
			s.lost = append(s.lost, *l)
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

// Lost is what each stream lost (rows dropped, the error that stopped
// it), for the result's outputs; read it after Close.
func (s *Streams) Lost() []result.OutputLoss { return s.lost }
