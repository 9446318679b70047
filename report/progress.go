package report

import (
	"fmt"
	"time"

	"github.com/vesload/vesload/report/format"
)

// Progress is what the live line of one second of a run shows. The run's
// caller copies it from the engine's own figures, so that report renders
// a second without importing the engine.
type Progress struct {
	// Elapsed is the run's time so far, Total its planned length.
	Elapsed, Total time.Duration
	// RPS is the rate sent during the last second, TargetRPS the
	// schedule's own rate now.
	RPS, TargetRPS float64
	InFlight       int64
	// P50 and P99 are the latencies of the requests finished in the last
	// Window seconds.
	P50, P99 time.Duration
	Window   int
	Errors   int64
	// PoolExhausted (REST) and Disconnected (HV-VES) count the requests
	// due that were never sent.
	PoolExhausted, Disconnected int64
	// BytesSent is the bytes on the wire so far, from which an HV-VES
	// run's data rate is read.
	BytesSent int64
	// TargetCPU is the target's latest CPU sample in percent of one core,
	// when TargetSampled.
	TargetCPU     float64
	TargetSampled bool
}

// ProgressLine is the live line of one second of a run, as vesload prints
// it on stderr: elapsed of total, the rate sent against the schedule's,
// in flight, the latency percentiles of the last s.Window seconds, errors
// and, when sampled, the target's CPU. A REST run's line shows the pool
// exhausted; an HV-VES run's (messages) shows the data rate since prev,
// the previous second's figures, and the disconnected messages instead,
// since its pool never runs out.
func ProgressLine(s, prev *Progress, messages bool) string {
	var line string
	if messages {
		mbps := 0.0
		if dt := (s.Elapsed - prev.Elapsed).Seconds(); dt > 0 {
			mbps = float64(s.BytesSent-prev.BytesSent) / dt / 1e6
		}
		line = fmt.Sprintf("[%s/%s] %6.0f msg/s (target %.0f/s)  %.2f MB/s  in flight %d  p50 %sms  p99 %sms (last %ds)  errors %d  disconnected %d",
			s.Elapsed.Round(time.Second), s.Total.Round(time.Second), s.RPS, s.TargetRPS, mbps, s.InFlight,
			format.Duration(s.P50), format.Duration(s.P99), s.Window, s.Errors, s.Disconnected)
	} else {
		line = fmt.Sprintf("[%s/%s] %6.0f/s (target %.0f/s)  in flight %d  p50 %sms  p99 %sms (last %ds)  errors %d  pool exhausted %d",
			s.Elapsed.Round(time.Second), s.Total.Round(time.Second), s.RPS, s.TargetRPS, s.InFlight,
			format.Duration(s.P50), format.Duration(s.P99), s.Window, s.Errors, s.PoolExhausted)
	}
	if s.TargetSampled {
		line += fmt.Sprintf("  target cpu %.0f%%", s.TargetCPU)
	}
	return line
}
