package engine

import (
	"testing"
	"time"

	"github.com/vesload/vesload/report/result"
)

func okIn(lat time.Duration) result.Outcome {
	return result.Outcome{Class: result.OutcomeOK, Latency: lat, Service: lat}
}

// closeAll collects the seconds a timeline closes, settled.
func closeAll(tl *timeline, all bool) []result.Second {
	var cs []closedSecond
	tl.closeReady(all, func(s int64, t *result.Tally) { cs = append(cs, closedSecond{s: result.Second{T: s}, t: t}) })
	tl.settle(cs)
	out := make([]result.Second, len(cs))
	for i := range cs {
		out[i] = cs[i].s
	}
	return out
}

func TestTimelineClosesSecondsWhenFinal(t *testing.T) {
	t.Parallel()
	tl := newTimeline(func(int64) int64 { return 2 }, nil)
	tl.due(0)
	tl.due(0)
	tl.add(0, okIn(time.Millisecond))
	if got := closeAll(tl, false); len(got) != 0 {
		t.Fatalf("closed %+v while the dispatcher is still in second 0", got)
	}
	tl.due(1)
	if got := closeAll(tl, false); len(got) != 0 {
		t.Fatalf("closed %+v while a request due in second 0 waits for its answer", got)
	}
	// The late answer of second 0 counts in second 0, whenever it comes.
	tl.add(0, okIn(2*time.Second))
	got := closeAll(tl, false)
	if len(got) != 1 || got[0].T != 0 || got[0].Scheduled != 2 || got[0].OK != 2 || got[0].P99Ms < 1900 {
		t.Fatalf("closed %+v, want second 0 with 2 scheduled, 2 ok and the 2 s answer in its p99", got)
	}
	// A pause: the dispatcher jumps to second 4; seconds 1–3 close as
	// they become final, empty ones included.
	tl.add(1, okIn(time.Millisecond))
	tl.due(4)
	got = closeAll(tl, false)
	if len(got) != 3 || got[0].T != 1 || got[0].OK != 1 || got[1].T != 2 || got[1].OK != 0 || got[2].T != 3 {
		t.Fatalf("closed %+v, want seconds 1 (1 ok), 2 and 3 (empty)", got)
	}
	// The dispatcher has finished: the last second closes once answered.
	tl.passed()
	if got := closeAll(tl, false); len(got) != 0 {
		t.Fatalf("closed %+v before second 4 was answered", got)
	}
	tl.add(4, result.Outcome{Class: "timeout", Latency: time.Second, Service: time.Second})
	got = closeAll(tl, false)
	if len(got) != 1 || got[0].T != 4 || got[0].Errors != 1 || got[0].ErrorsByClass["timeout"] != 1 {
		t.Fatalf("closed %+v, want second 4 with its timeout", got)
	}
	if got := closeAll(tl, true); len(got) != 0 {
		t.Fatalf("closing all after the end closed %+v, want nothing left", got)
	}
	if len(tl.closed) != 5 {
		t.Errorf("timeline holds %d seconds, want 5", len(tl.closed))
	}
}

func TestTimelineEndOfRunClosesWhatIsOpen(t *testing.T) {
	t.Parallel()
	tl := newTimeline(nil, func(int64) int { return 7 })
	tl.due(0)
	tl.due(0)
	tl.add(0, okIn(time.Millisecond)) // the other one never answers (aborted)
	tl.passed()
	if got := closeAll(tl, false); len(got) != 0 {
		t.Fatalf("closed %+v with an answer missing", got)
	}
	got := closeAll(tl, true)
	if len(got) != 1 || got[0].Scheduled != 1 || got[0].Concurrency != 7 {
		t.Fatalf("closed %+v, want second 0 with its one outcome and the step's concurrency", got)
	}
}

func TestTimelineDiscardAndStragglers(t *testing.T) {
	t.Parallel()
	tl := newTimeline(nil, nil)
	tl.due(0)
	tl.due(0)
	tl.add(0, okIn(time.Millisecond))
	tl.discard(0) // cut off by a stop while waiting for a connection
	tl.due(1)
	if got := closeAll(tl, false); len(got) != 1 || got[0].Sent != 1 {
		t.Fatalf("closed %+v, want second 0 with its one sent request", got)
	}
	if tl.add(0, okIn(time.Millisecond)) {
		t.Errorf("an outcome for a closed second was counted in the timeline")
	}
}

func TestTimelineForcesOutVeryOldSeconds(t *testing.T) {
	t.Parallel()
	tl := newTimeline(nil, nil)
	tl.due(0) // never answered
	tl.due(timelineRing - 8)
	got := closeAll(tl, false)
	if len(got) == 0 || got[0].T != 0 {
		t.Fatalf("closed %d seconds, want second 0 forced out before the ring wraps", len(got))
	}
}

func TestTimelineReadings(t *testing.T) {
	t.Parallel()
	tl := newTimeline(nil, nil)
	tl.reading(0, 12.345, &Reading{CPUPct: 50.555, RSSBytes: 1 << 20})
	tl.reading(1, 3, nil)
	tl.due(0)
	tl.add(0, okIn(time.Millisecond))
	tl.due(1)
	tl.add(1, okIn(time.Millisecond))
	got := closeAll(tl, true)
	if len(got) != 2 || got[0].GenCPUPct != 12.35 || got[0].TargetCPUPct != 50.56 || got[0].TargetRSSBytes != 1<<20 ||
		got[1].GenCPUPct != 3 || got[1].TargetCPUPct != 0 {
		t.Fatalf("seconds %+v, want the readings of their wall seconds", got)
	}
}

func TestTimelineUsage(t *testing.T) {
	t.Parallel()
	tl := newTimeline(nil, nil)
	tl.used(0, usageReading{rssBytes: 40 << 20, inFlight: 16, schedP99Ms: 2.5})
	tl.used(maxTimeline, usageReading{rssBytes: 1, inFlight: 1}) // past the bound: ignored
	tl.due(0)
	tl.add(0, okIn(time.Millisecond))
	tl.due(1)
	tl.add(1, okIn(time.Millisecond))
	got := closeAll(tl, true)
	if len(got) != 2 || got[0].GenRSSBytes != 40<<20 || got[0].InFlight != 16 || got[0].GenSchedP99Ms != 2.5 ||
		got[1].GenRSSBytes != 0 || got[1].InFlight != 0 || got[1].GenSchedP99Ms != 0 {
		t.Fatalf("seconds %+v, want the generator's RSS, in-flight count and wait to run of second 0 only", got)
	}
}

// TestTimelineSecondSplitsByOutcome: when an output asks for it
// (OutcomeSplitter), the Tally a closed second hands to the outputs
// carries the split they report (InfluxDB's ok and ko rows and its error
// rows), built with the rest of the second; otherwise it carries none.
func TestTimelineSecondSplitsByOutcome(t *testing.T) {
	t.Parallel()
	for _, split := range []bool{true, false} {
		tl := newTimeline(nil, nil)
		tl.pool.split = split
		tl.due(0)
		tl.due(0)
		tl.add(0, okIn(time.Millisecond))
		tl.add(0, result.Outcome{Class: "http_503", MessageID: "SVC2000", Latency: 40 * time.Millisecond})
		tl.passed()
		var cs []closedSecond
		tl.closeReady(false, func(s int64, t *result.Tally) { cs = append(cs, closedSecond{s: result.Second{T: s}, t: t}) })
		// Under the lock a split second counts each latency once, into
		// its side; the whole is joined after the lock, by settle.
		if len(cs) == 1 && split && (cs[0].t.Latency.TotalCount() != 0 || len(cs[0].t.Classes) != 0) {
			t.Errorf("the split second was joined under the lock: %d latencies, classes %v", cs[0].t.Latency.TotalCount(), cs[0].t.Classes)
		}
		tl.settle(cs)
		var got []*result.Tally
		for _, c := range cs {
			got = append(got, c.t)
		}
		if len(got) != 1 {
			t.Fatalf("closed %d seconds, want 1", len(got))
		}
		s := got[0]
		if e := cs[0].s; s.Latency.TotalCount() != 2 || s.Classes["http_503"] != 1 || s.MessageIDs["SVC2000"] != 1 ||
			e.Sent != 2 || e.ErrorsByClass["http_503"] != 1 || e.MaxMs < 39 {
			t.Errorf("split %v: second's Tally %d latencies, classes %v, messageIds %v, entry %+v; want both requests in each",
				split, s.Latency.TotalCount(), s.Classes, s.MessageIDs, e)
		}
		if !split {
			if s.OKLatency != nil || s.ErrorLatency != nil || s.Failures != nil {
				t.Errorf("no output asked for the split, but the second carries it: %+v", s)
			}
			continue
		}
		if s.OKLatency.TotalCount() != 1 || s.ErrorLatency.TotalCount() != 1 || s.ErrorLatency.Min() < 39_000 ||
			s.Failures[result.Failure{Class: "http_503", MessageID: "SVC2000"}] != 1 {
			t.Errorf("second's Tally: ok %d, ko %d (min %d µs), failures %v; want one of each, the 503 with its messageId",
				s.OKLatency.TotalCount(), s.ErrorLatency.TotalCount(), s.ErrorLatency.Min(), s.Failures)
		}
	}
}
