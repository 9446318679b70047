package hv

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/vesload/vesload/report/result"
)

// Protocol is the result document's config.protocol for HV-VES runs.
const Protocol = result.ProtocolHV

// NotSentStopped is the reason, in the hv section's not_sent_by, of the
// messages a stop cut off before they were due (or sent).
const NotSentStopped = "stopped"

// AddSection fills res.HV, the figures of an HV-VES run the engine has no
// place for (engine.ResultSection): per-producer counts under their
// run-wide sourceNames, connect and TLS handshake times, reconnects,
// causes of dropped connections and failed dials, and the data rates
// (the average over the run's duration and the peak second of the
// engine's per-second bytes). It reads the engine's figures in res and
// changes nothing else. It is called for checkpoints too, while senders
// run: every count it reads is atomic or under a lock.
func (t *Transport) AddSection(res *result.Result, _ bool) {
	cfg := t.cfg
	hv := &result.HV{
		Addr: cfg.Addr, TLS: cfg.TLS != nil, Producers: len(t.mine), Messages: cfg.Messages,
		SizeBytes: cfg.Size, IntervalS: cfg.Interval.Seconds(), Domain: cfg.domain(),
		NotSentBy: map[string]int64{}, Disconnects: map[string]int64{}, DialErrors: map[string]int64{},
		WriteBlocked: res.Service,
	}
	var disconnected int64
	for _, p := range t.mine {
		pc := t.conns[p]
		w, f := pc.written.Load(), pc.failed.Load()
		c := result.HVCounts{Scheduled: int64(cfg.Messages), Sent: w + f, Written: w, Failed: f, Bytes: pc.bytes.Load()}
		c.NotSent = max(c.Scheduled-c.Sent, 0)
		disconnected += pc.disconnected.Load()
		hv.Connects += pc.connects.Load()
		hv.Reconnects += pc.reconnects.Load()
		hv.WrittenIntoBroken += pc.intoBroken.Load()
		hv.ByProducer = append(hv.ByProducer, result.HVProducer{Source: cfg.Source(p).SourceName, Counts: c,
			Reconnects: pc.reconnects.Load()})
		addCounts(&hv.Sent, c)
	}
	hv.Sent.Scheduled = res.Requests.Scheduled // the engine's: the shard's share of the schedule
	hv.Sent.NotSent = max(hv.Sent.Scheduled-hv.Sent.Sent, 0)
	if disconnected > 0 {
		hv.NotSentBy[result.ClassDisconnected] = disconnected
	}
	if pe := res.Errors[result.ClassPoolExhausted]; pe > 0 {
		hv.NotSentBy[result.ClassPoolExhausted] = pe
	}
	if rest := hv.Sent.NotSent - disconnected - res.Errors[result.ClassPoolExhausted]; rest > 0 {
		hv.NotSentBy[NotSentStopped] = rest
	}
	t.mu.Lock()
	hv.Connect, hv.Handshake = result.Summarize(t.connect), result.Summarize(t.handshake)
	for k, v := range t.drops {
		hv.Disconnects[k] = v
	}
	for k, v := range t.dialErrors {
		hv.DialErrors[k] = v
	}
	t.mu.Unlock()
	hv.MBps = rate(hv.Sent.Bytes, res.DurationS) / 1e6
	hv.PeakMBps = peakRate(t.wrote.seconds(), res.DurationS) / 1e6
	res.HV = hv
}

func addCounts(dst *result.HVCounts, c result.HVCounts) {
	dst.Scheduled += c.Scheduled
	dst.Sent += c.Sent
	dst.Written += c.Written
	dst.Failed += c.Failed
	dst.NotSent += c.NotSent
	dst.Bytes += c.Bytes
}

// Target names a collector at addr as a result does: tcp://HOST:PORT, or
// tls:// when the producers speak TLS.
func Target(addr string, tls bool) string {
	if tls {
		return "tls://" + addr
	}
	return "tcp://" + addr
}

// RunConfig is the result's description of the run: its target
// (Target), its rate and shape, the producers as the pool.
func (c Config) RunConfig() result.RunConfig {
	producers := len(c.mine())
	target := float64(producers) / c.Interval.Seconds()
	return result.RunConfig{Protocol: Protocol, URL: Target(c.Addr, c.TLS != nil), RPS: target,
		Shape:     fmt.Sprintf("%d producers × %d every %s", producers, c.Messages, c.Interval),
		DurationS: (c.Span() + c.Interval).Seconds(), Pool: producers, KeepAlive: true,
		Event: c.domain(), EventSize: c.Size, RunID: c.RunID, TimeoutS: c.withDefaults().WriteTimeout.Seconds()}
}

func (c Config) domain() string {
	if c.Domain == "" {
		return "perf3gpp"
	}
	return c.Domain
}

func rate(n int64, seconds float64) float64 {
	if seconds <= 0 {
		return 0
	}
	return float64(n) / seconds
}

// writtenSeconds counts bytes by the second of the run in which their
// write ended, for the peak data rate. Its seconds cover the schedule's
// span and a margin; a write later than that counts in the last one. They
// are made a chunk at a time as writes reach them, so its memory follows
// the time the run has taken, never the schedule's length (a schedule of
// months made 8 bytes for each of its seconds before connecting). Writes
// of many producers add at once, without a lock.
type writtenSeconds struct {
	start  atomic.Int64 // the run's start, Unix ns; 0 until the first write
	n      int          // seconds covered
	chunks []atomic.Pointer[[writtenChunk]atomic.Int64]
}

// writtenMargin is how far past the schedule's span writes are kept in
// seconds of their own.
const writtenMargin = 2 * time.Minute

// writtenChunk is how many seconds are made at once: 8 KiB, about 17
// minutes of a run.
const writtenChunk = 1024

func newWrittenSeconds(span time.Duration) writtenSeconds {
	n := int((span+writtenMargin)/time.Second) + 1
	return writtenSeconds{n: n, chunks: make([]atomic.Pointer[[writtenChunk]atomic.Int64], (n+writtenChunk-1)/writtenChunk)}
}

// bucket is second i's counter, its chunk made by the first write there.
func (w *writtenSeconds) bucket(i int64) *atomic.Int64 {
	c := &w.chunks[i/writtenChunk]
	p := c.Load()
	if p == nil {
		if c.CompareAndSwap(nil, new([writtenChunk]atomic.Int64)) {
			p = c.Load()
		} else {
			p = c.Load() // another writer made it first
		}
	}
	return &p[i%writtenChunk]
}

// add counts n bytes whose write ended at done, in a run that started at
// start (every message knows it: its due time less its offset).
func (w *writtenSeconds) add(start, done time.Time, n int64) {
	s := w.start.Load()
	if s == 0 { // the first write: a read-modify-write on every one would contend
		w.start.CompareAndSwap(0, start.UnixNano())
		s = w.start.Load()
	}
	i := done.UnixNano() - s
	i = min(max(i/int64(time.Second), 0), int64(w.n-1))
	w.bucket(i).Add(n)
}

// seconds is the bytes written in each second so far, up to the last
// second that has any.
func (w *writtenSeconds) seconds() []int64 {
	var out []int64
	last := 0
	for c := range w.chunks {
		p := w.chunks[c].Load()
		if p == nil {
			continue
		}
		for j := range p {
			i := c*writtenChunk + j
			if i >= w.n {
				break
			}
			if b := p[j].Load(); b > 0 {
				if i >= len(out) {
					out = append(out, make([]int64, i+1-len(out))...)
				}
				out[i], last = b, i+1
			}
		}
	}
	return out[:last]
}

// peakRate is the highest data rate (bytes/s) of the run's seconds, with
// the same span as the average (total bytes / elapsed): the partial last
// second is joined to the one before it, and a run shorter than a second
// has one period, its whole span. Every period is then at least a second
// long (no sliver of a second can spike) and the periods cover exactly
// the elapsed time, so the average is a weighted mean of their rates and
// the peak is never below it.
func peakRate(perSecond []int64, elapsed float64) float64 {
	if elapsed <= 0 {
		return 0
	}
	whole := int(elapsed) // seconds fully inside the run
	if whole == 0 {
		var total int64
		for _, b := range perSecond {
			total += b
		}
		return float64(total) / elapsed
	}
	var peak float64
	var last int64
	for i, b := range perSecond {
		if i < whole-1 {
			peak = max(peak, float64(b))
			continue
		}
		last += b
	}
	return max(peak, float64(last)/(elapsed-float64(whole-1)))
}
