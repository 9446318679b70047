package main

import (
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/observe"
)

// streams are the --jtl and --hdr-log files written while the run goes
// on (observe.Streams).
type streams struct{ *observe.Streams }

// openStreams creates the requested files before the run, so that an
// unwritable path fails at once (exit 1) rather than after ten minutes.
func openStreams(jtlPath, hdrPath, url string, start time.Time) (*streams, error) {
	s, err := observe.OpenStreams(observe.Stream{Option: "--jtl", Path: jtlPath}, observe.Stream{Option: "--hdr-log", Path: hdrPath}, url, start)
	if err != nil {
		return nil, err
	}
	return &streams{s}, nil
}

// observers starts the writers of the streams and returns their
// observers; the JTL labels every row label, or labels(seq) when set.
func (s *streams) observers(label string, labels func(seq int64) string) []loadgen.Observer {
	return s.Observers(label, labels)
}

func (s *streams) close() []string { return s.Close() }
