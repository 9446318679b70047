package loadgen

import (
	"slices"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/loadgen/transport"
	"github.com/vesload/vesload/report/result"
)

// record is what one request's fate looks like to the recorder.
type record struct {
	seq     int64
	flight  int64 // requests in flight when this one was sent, itself included
	kind    uint8
	step    uint16
	dueNs   int64 // due time, from the start of the run
	latency int64 // ns from due time to response
	service int64 // ns from hand-over to response
	sent    int64 // body bytes out
	recv    int64 // body bytes in
	code    int32
	class   transport.Class
	msgID   string // messageId of a VES error body
}

// recorder counts every outcome into Tallies (the run, each request kind,
// each closed-model step, each second of the timeline) and fans each one
// out to the observers. It knows nothing of the engine: workers, the
// dispatcher and the ticker call it, all under its one lock.
type recorder struct {
	mu       sync.Mutex
	obs      observers
	started  time.Time
	finished bool // the run is over: stragglers are no longer counted

	run   result.Tally
	kinds []result.Tally // per request kind, when there is a mix
	steps []result.Tally // per closed-model step
	tl    *timeline
	live  *hdrhistogram.Histogram // latency of the requests finished in the current wall second

	maxFlight int64
	silence   silence

	ev RequestEvent // reused for every request, so that fanning out allocates nothing
}

func newRecorder(obs []Observer, kinds, steps int, tl *timeline) *recorder {
	r := &recorder{obs: obs, run: result.NewTally(), tl: tl, live: result.NewHistogram()}
	if kinds > 1 {
		r.kinds = newTallies(kinds)
	}
	r.steps = newTallies(steps)
	return r
}

func newTallies(n int) []result.Tally {
	if n == 0 {
		return nil
	}
	ts := make([]result.Tally, n)
	for i := range ts {
		ts[i] = result.NewTally()
	}
	return ts
}

// record adds one request's fate. After the run is over, stragglers are
// ignored: the result counts them as aborted.
func (r *recorder) record(rec *record) {
	r.mu.Lock()
	if !r.finished {
		r.add(rec)
	}
	r.mu.Unlock()
}

func (r *recorder) add(rec *record) {
	name := rec.class.Name(int(rec.code))
	o := result.Outcome{
		Class: name, MessageID: rec.msgID,
		Latency: time.Duration(rec.latency), Service: time.Duration(rec.service),
		BytesSent: rec.sent, BytesReceived: rec.recv,
	}
	r.run.Add(o)
	if r.kinds != nil {
		r.kinds[rec.kind].Add(o)
	}
	if r.steps != nil {
		r.steps[rec.step].Add(o)
	}
	r.tl.add(rec.dueNs/int64(time.Second), o)
	if rec.class != transport.PoolExhausted {
		r.live.RecordValue(result.Micros(o.Latency))
		r.maxFlight = max(r.maxFlight, rec.flight)
	}
	if rec.code > 0 {
		done := rec.dueNs + rec.latency
		r.silence.answer(done-rec.service, done)
	}
	r.ev = RequestEvent{
		Seq:       rec.seq,
		Due:       r.started.Add(time.Duration(rec.dueNs)),
		Latency:   o.Latency,
		Service:   o.Service,
		Outcome:   name,
		Code:      int(rec.code),
		BytesSent: rec.sent,
		BytesRecv: rec.recv,
		MessageID: rec.msgID,
	}
	r.obs.request(&r.ev)
}

// closeSeconds closes the seconds of the timeline that are final (all of
// them once the run is over) and hands each to the observers.
func (r *recorder) closeSeconds(all bool) {
	r.tl.closeReady(all, r.obs.timeline)
}

// tallies is a consistent copy of everything the recorder counted, taken
// under its lock, from which a result (final or checkpoint) is built.
type tallies struct {
	run          result.Tally
	kinds, steps []result.Tally
	timeline     []result.Second
	truncated    bool
	maxFlight    int64
	silence      silence
}

// snapshot copies the recorder's state; the copy shares nothing with it.
// sent is read by the caller after the copy, so that every request the
// copy counts as sent is in it (see assemble).
func (r *recorder) snapshot() tallies {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.copyLocked()
}

func (r *recorder) copyLocked() tallies {
	t := tallies{
		run:       r.run.Clone(),
		timeline:  slices.Clone(r.tl.closed),
		truncated: r.tl.truncated,
		maxFlight: r.maxFlight,
		silence:   r.silence,
	}
	t.kinds = cloneTallies(r.kinds)
	t.steps = cloneTallies(r.steps)
	return t
}

func cloneTallies(ts []result.Tally) []result.Tally {
	if ts == nil {
		return nil
	}
	out := make([]result.Tally, len(ts))
	for i := range ts {
		out[i] = ts[i].Clone()
	}
	return out
}

// finish ends the recording: later outcomes are ignored, the open seconds
// are closed, and the final state is returned.
func (r *recorder) finish() tallies {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finished = true
	r.closeSeconds(true)
	return r.copyLocked()
}

// silence tracks the longest time during which the target gave no answer
// while a request was waiting for one: a frozen target, not a slow
// generator. Times are from the start of the run, in ns.
type silence struct {
	lastAnswer int64
	longest    int64
	from       int64
}

// answer notes an answer at done to a request written at written: the
// target was silent from the later of the previous answer and the write.
func (s *silence) answer(written, done int64) {
	from := max(s.lastAnswer, written)
	if done-from > s.longest {
		s.longest, s.from = done-from, from
	}
	s.lastAnswer = max(s.lastAnswer, done)
}
