package engine

import (
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
	sent    int64 // bytes out on the wire, headers included
	recv    int64 // bytes in on the wire, headers included
	connect int64 // ns to open the connection, when this request opened it
	ttfb    int64 // ns from hand-over to the answer's first byte; 0 without one
	code    int32
	class   transport.Class
	msgID   string // messageId of a VES error body
	// token is the connection token the request was sent with, when held
	// says it was: recording the outcome frees the token's ticket.
	token token
	held  bool
	// ev is the request's event for the observers, filled by the
	// recorder after its lock is released; the record's owner reuses it.
	ev RequestEvent
}

// recorder counts every outcome into Tallies (the run, each request kind,
// each closed-model step, each second of the timeline): that is all it
// does under its one lock. Each request's event goes to the observers
// after the lock is released; the seconds it closes go out as snapshots
// (see tick). It knows nothing of the engine: workers, the dispatcher and
// the ticker call it.
type recorder struct {
	mu       sync.Mutex
	obs      observers
	started  time.Time
	finished bool // the run is over: stragglers are no longer counted
	// fanning counts the requests whose events are on their way to the
	// observers; finish waits for them, so that none comes after.
	fanning sync.WaitGroup

	// cur counts the run, each kind and each step since the last swap
	// (see ledger).
	cur  *counts
	tl   *timeline
	live *hdrhistogram.Histogram // latency of the requests finished in the current wall second

	maxFlight int64
	// secondFlight is the most requests in flight at once that the
	// requests answered since the last tick saw; the tick reads and
	// resets it for the timeline's pool-use figure.
	secondFlight int64
	silence      silence
	// tickets are the pool's tokens (the dispatcher's): which request
	// holds each, for the requests an abort cuts off.
	tickets []ticket
}

func newRecorder(obs []Observer, kinds, steps int, tl *timeline) *recorder {
	return &recorder{obs: obs, cur: newCounts(kinds, steps), tl: tl, live: result.NewHistogram()}
}

// record adds one request's fate, then shows its event to the observers,
// outside the lock. After the run is over, stragglers are ignored: the
// result counts them as aborted.
func (r *recorder) record(rec *record) {
	name, ok := r.count(rec)
	if !ok {
		return
	}
	rec.ev = RequestEvent{
		Seq:       rec.seq,
		Due:       r.started.Add(time.Duration(rec.dueNs)),
		Latency:   time.Duration(rec.latency),
		Service:   time.Duration(rec.service),
		Outcome:   name,
		Code:      int(rec.code),
		BytesSent: rec.sent,
		BytesRecv: rec.recv,
		MessageID: rec.msgID,
		InFlight:  rec.flight,
		Connect:   time.Duration(rec.connect),
		FirstByte: time.Duration(rec.ttfb),
	}
	r.obs.request(&rec.ev)
	r.fanning.Done()
}

// count is record's work under the lock: it counts rec, unless the run
// is over, and returns the outcome's class name and whether rec was
// counted, with its event then owed to the observers (fanning).
func (r *recorder) count(rec *record) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return "", false
	}
	if rec.held {
		r.tickets[rec.token].held.Store(false)
	}
	name := r.add(rec)
	r.fanning.Add(1)
	return name, true
}

// add counts rec; the caller holds the lock. It returns the outcome's
// class name.
func (r *recorder) add(rec *record) string {
	name := rec.class.Name(int(rec.code))
	o := result.Outcome{
		Class: name, MessageID: rec.msgID,
		Latency: time.Duration(rec.latency), Service: time.Duration(rec.service),
		BytesSent: rec.sent, BytesReceived: rec.recv,
	}
	c := r.cur
	c.run.Add(o)
	if c.kinds != nil {
		c.kinds[rec.kind].Add(o)
	}
	if c.steps != nil {
		c.steps[rec.step].Add(o)
	}
	r.tl.add(rec.dueNs/int64(time.Second), o)
	if !rec.class.NeverSent() {
		r.live.RecordValue(result.Micros(o.Latency))
		r.maxFlight = max(r.maxFlight, rec.flight)
		r.secondFlight = max(r.secondFlight, rec.flight)
		done := rec.dueNs + rec.latency
		// An answer, or a write the target took (HV-VES answers nothing:
		// a completed write is the collector reading), shows it alive.
		r.silence.note(done-rec.service, done, rec.code > 0 || rec.class == transport.OK)
	}
	return name
}

// closeSeconds closes the seconds of the timeline that are final (all of
// them once the run is over) and returns them, each its number and its
// Tally, for the timeline's settle and the outputs' snapshot; the caller
// holds the lock.
func (r *recorder) closeSeconds(all bool) []closedSecond {
	var out []closedSecond
	r.tl.closeReady(all, func(s int64, t *result.Tally) {
		out = append(out, closedSecond{s: result.Second{T: s}, t: t})
	})
	return out
}

// tallies is a consistent state of everything the recorder counted,
// from which a result (final or checkpoint) is built (see ledger).
type tallies struct {
	run          result.Tally
	kinds, steps []result.Tally
	timeline     []result.Second
	truncated    bool
	maxFlight    int64
	// silent is the longest time the target gave no answer while a
	// request waited, from silentFrom into the run.
	silent, silentFrom time.Duration
}

// swap hands l the counts and the silence noted since the last swap, and
// counts on l's spare from now on; it returns the counts handed over,
// for l.take outside the lock, and the most requests in flight at once.
// The caller holds the lock: all of it takes constant time, bar the few
// words of silence noted since.
func (r *recorder) swap(l *ledger) (delta *counts, maxFlight int64) {
	delta = r.cur
	r.cur = l.spare
	r.silence.drain(&l.silence)
	return delta, r.maxFlight
}

// finish ends the recording: later outcomes are ignored, the open seconds
// are closed, and what was counted since the last swap goes to l, which
// then holds the final state, returned with the snapshot of the last
// seconds. The observers see, after every event already on its way, each
// request still holding a ticket as aborted (see heldEvents).
func (r *recorder) finish(now time.Time, l *ledger) (tallies, *tick) {
	r.mu.Lock()
	r.finished = true
	held := r.heldEvents(now)
	last := &tick{seconds: r.closeSeconds(true), pool: r.tl.pool}
	delta, maxFlight := r.swap(l)
	r.mu.Unlock()
	r.tl.settle(last.seconds)
	l.take(delta, false)
	r.fanning.Wait()
	for i := range held {
		r.obs.request(&held[i])
	}
	return l.tallies(l.sum, r.tl.view(maxFlight)), last
}

// heldEvents are the events of the requests still holding a ticket when
// the run ends (an abort cut the drain short, or the drain ran out of
// time), each an aborted request, as the result counts it (see
// assemble): every request sent is then one event, so a JTL has a row for
// each. Its latency runs to the end of the run; it has no service time,
// since its outcome never came. The caller holds the lock.
func (r *recorder) heldEvents(now time.Time) []RequestEvent {
	var held int64
	for i := range r.tickets {
		if r.tickets[i].held.Load() {
			held++
		}
	}
	if held == 0 {
		return nil
	}
	evs := make([]RequestEvent, 0, held)
	for i := range r.tickets {
		t := &r.tickets[i]
		if !t.held.Load() {
			continue
		}
		evs = append(evs, RequestEvent{
			Seq:     t.seq,
			Due:     t.due,
			Latency: max(now.Sub(t.due), 0),
			Outcome: result.ClassAborted,
			// They were all in flight together when the run ended.
			InFlight: held,
		})
	}
	return evs
}

// silence finds the longest time during which the target gave no answer
// while a request was waiting for one: a frozen target, not a slow
// generator. Answers are noted in buckets of their arrival time, so the
// order in which workers record them does not matter; only requests that
// waited at least silenceWarn can span such a silence, and their waits are
// kept (up to maxWaits). Times are from the start of the run, in ns.
type silence struct {
	answered []uint64   // bit i: an answer arrived in bucket i
	waits    [][2]int64 // [written, done] of the long waits
	// from is the first word of answered changed since the last drain;
	// noted counts the long waits noted in all, drained or not.
	from, noted int
}

const (
	silenceBucket = int64(100 * time.Millisecond)
	maxBuckets    = 86400 * 10 // a day of buckets: 108 KB of bits
	maxWaits      = 4096
)

// note records the request written at written whose outcome came at done;
// answered says whether the target answered it (not a timeout or a
// transport error).
func (s *silence) note(written, done int64, answered bool) {
	if b := done / silenceBucket; answered && b >= 0 && b < maxBuckets {
		for int64(len(s.answered)) <= b/64 {
			s.answered = append(s.answered, 0)
		}
		s.answered[b/64] |= 1 << (b % 64)
		s.from = min(s.from, int(b/64))
	}
	if done-written >= int64(silenceWarn) && s.noted < maxWaits {
		s.waits = append(s.waits, [2]int64{written, done})
		s.noted++
	}
}

// drain hands dst what s noted since the last drain: the words of
// answered that changed (answers arrive about now, so a word or two) and
// the long waits, which s then forgets. dst, the silence judged outside
// the lock, then knows everything s does.
func (s *silence) drain(dst *silence) {
	if s.from < len(s.answered) {
		for len(dst.answered) < len(s.answered) {
			dst.answered = append(dst.answered, 0)
		}
		copy(dst.answered[s.from:], s.answered[s.from:])
	}
	s.from = len(s.answered)
	dst.waits = append(dst.waits, s.waits...)
	dst.noted += len(s.waits)
	s.waits = s.waits[:0]
}

// longest is the longest run of buckets without an answer inside one
// request's wait, and when it began.
func (s *silence) longest() (d, from time.Duration) {
	var best, bestFrom int64
	for _, w := range s.waits {
		run := int64(0)
		for b := w[0]/silenceBucket + 1; b < w[1]/silenceBucket; b++ {
			if s.has(b) {
				run = 0
				continue
			}
			if run++; run > best {
				best, bestFrom = run, b-run+1
			}
		}
	}
	return time.Duration(best * silenceBucket), time.Duration(bestFrom * silenceBucket)
}

func (s *silence) has(b int64) bool {
	i := b / 64
	return i < int64(len(s.answered)) && s.answered[i]&(1<<(b%64)) != 0
}
