package main

import (
	"context"
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/sample"
	"github.com/vesload/vesload/report/result"
)

// selfWatch samples vesload's own CPU and memory once a second during an
// HV-VES run, with the same meter (sample.NewSelf) and saturation rule
// (loadgen.Saturated) as a REST run (with the built-in emulator, the
// emulator is in the same process and counted too).
type selfWatch struct {
	done, finished  chan struct{}
	sum, peak       float64
	n               int
	rss, anon, heap int64
}

func watchSelf() *selfWatch {
	w := &selfWatch{done: make(chan struct{}), finished: make(chan struct{})}
	s, err := sample.NewSelf()
	if err != nil {
		close(w.finished)
		return w
	}
	go func() {
		defer close(w.finished)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		_, _ = s.Sample(context.Background(), time.Now()) // the first reading starts the rate
		for {
			select {
			case <-w.done:
				return
			case now := <-t.C:
				r, err := s.Sample(context.Background(), now)
				if err != nil {
					continue
				}
				w.rss, w.anon, w.heap = max(w.rss, r.RSSBytes), max(w.anon, r.AnonBytes), max(w.heap, r.GoHeapBytes)
				if !r.NoCPU {
					w.sum += r.CPUPct
					w.peak = max(w.peak, r.CPUPct)
					w.n++
				}
			}
		}
	}()
	return w
}

// stop ends the sampling and puts the figures into g.
func (w *selfWatch) stop(g *result.Generator) {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	<-w.finished
	if w.n > 0 {
		g.CPUAvgPct, g.CPUMaxPct = w.sum/float64(w.n), w.peak
	}
	g.RSSMaxBytes, g.RSSAnonMaxBytes, g.GoHeapMaxBytes = w.rss, w.anon, w.heap
	g.Saturated = loadgen.Saturated(*g)
}
