package hv

import (
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/result"
)

// Reasons a message was not sent.
const (
	NotSentDisconnected = result.ClassDisconnected // no connection at its due time
	NotSentStopped      = "stopped"                // due after a stop
)

// Counts is the message accounting of one producer or of the run:
// Scheduled = Sent + NotSent and Sent = Written + Failed.
type Counts struct {
	Scheduled int64 `json:"scheduled"`
	Sent      int64 `json:"sent"`
	Written   int64 `json:"written"`
	Failed    int64 `json:"failed"`
	NotSent   int64 `json:"not_sent"`
	Bytes     int64 `json:"bytes"`
}

func (c *Counts) add(o Counts) {
	c.Scheduled += o.Scheduled
	c.Sent += o.Sent
	c.Written += o.Written
	c.Failed += o.Failed
	c.NotSent += o.NotSent
	c.Bytes += o.Bytes
}

// second is one second of one producer's timeline.
type second struct {
	scheduled, written, failed, notSent, bytes int64
}

// recorder is one producer's record. Only its producer writes it; it is
// read after the producer has finished.
type recorder struct {
	counts     Counts
	notSentBy  map[string]int64
	drops      map[string]int64 // disconnections by cause
	dialErrors map[string]int64
	connects   int64 // successful connections, the first included
	reconnects int64

	latency   *hdrhistogram.Histogram // due → write done, µs
	blocked   *hdrhistogram.Histogram // write start → done, µs
	lag       *hdrhistogram.Histogram // due → write start, µs
	connect   *hdrhistogram.Histogram // TCP connect, µs
	handshake *hdrhistogram.Histogram // TLS handshake, µs
	seconds   []second
	start     time.Time
	live      *Live
	observe   func(outcome string, latency, blocked time.Duration)
}

// Live holds the run's running totals for progress lines and live
// metrics; any goroutine may read it.
type Live struct {
	Written, Failed, NotSent, Bytes, Reconnects atomic.Int64
}

func newRecorder(start time.Time, span time.Duration, live *Live, observe func(string, time.Duration, time.Duration)) *recorder {
	if observe == nil {
		observe = func(string, time.Duration, time.Duration) {}
	}
	return &recorder{observe: observe,
		notSentBy: map[string]int64{}, drops: map[string]int64{}, dialErrors: map[string]int64{},
		latency: result.NewHistogram(), blocked: result.NewHistogram(), lag: result.NewHistogram(),
		connect: result.NewHistogram(), handshake: result.NewHistogram(),
		seconds: make([]second, int(span/time.Second)+2), start: start, live: live,
	}
}

// at returns the timeline entry of the second t falls in.
func (r *recorder) at(t time.Time) *second {
	i := max(int(t.Sub(r.start)/time.Second), 0)
	for i >= len(r.seconds) {
		r.seconds = append(r.seconds, second{})
	}
	return &r.seconds[i]
}

func us(d time.Duration) int64 {
	return min(max(d.Microseconds(), result.HistogramLowestUs), result.HistogramHighestUs)
}

func (r *recorder) scheduled(due time.Time) {
	r.counts.Scheduled++
	r.at(due).scheduled++
}

func (r *recorder) notSent(due time.Time, why string) {
	r.counts.NotSent++
	r.notSentBy[why]++
	r.at(due).notSent++
	r.live.NotSent.Add(1)
	r.observe("not_sent", 0, 0)
}

func (r *recorder) written(due, begin, done time.Time, n int) {
	r.counts.Sent++
	r.counts.Written++
	r.counts.Bytes += int64(n)
	s := r.at(done)
	s.written++
	s.bytes += int64(n)
	_ = r.latency.RecordValue(us(done.Sub(due))) // clamped into range: cannot fail
	_ = r.blocked.RecordValue(us(done.Sub(begin)))
	_ = r.lag.RecordValue(us(begin.Sub(due)))
	r.live.Written.Add(1)
	r.live.Bytes.Add(int64(n))
	r.observe("ok", done.Sub(due), done.Sub(begin))
}

func (r *recorder) failed(done time.Time, cause string) {
	r.counts.Sent++
	r.counts.Failed++
	r.drops[cause]++
	r.at(done).failed++
	r.live.Failed.Add(1)
	r.observe(cause, 0, 0)
}

func (r *recorder) connected(connect, handshake time.Duration, tls bool) {
	r.connects++
	_ = r.connect.RecordValue(us(connect))
	if tls {
		_ = r.handshake.RecordValue(us(handshake))
	}
}
