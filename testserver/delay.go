package testserver

import (
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// dice draws the emulator's random numbers (error injection, jitter)
// without a lock: the n-th draw is splitmix64 of seed+n, so a given seed
// gives the same sequence of draws.
type dice struct {
	seed uint64
	n    atomic.Uint64
}

func newDice(seed uint64) dice {
	if seed == 0 {
		seed = rand.Uint64()
	}
	return dice{seed: seed}
}

// float returns the next draw in [0, 1).
func (d *dice) float() float64 {
	x := d.seed + d.n.Add(1)*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}

// responseDelay is how long a response that is ready at now waits:
// Latency spread by Jitter, stretched to the end of the stall window when
// it would otherwise go out during it.
func (s *Server) responseDelay(now time.Time) time.Duration {
	d := s.opts.Latency
	if j := s.opts.Jitter; j > 0 {
		d += time.Duration((2*s.dice.float() - 1) * float64(j))
		d = max(d, 0)
	}
	if s.opts.Stall > 0 {
		from := s.started.Add(s.opts.StallAt)
		until := from.Add(s.opts.Stall)
		if at := now.Add(d); !at.Before(from) && at.Before(until) {
			d = until.Sub(now)
		}
	}
	return d
}

// injectError decides whether this request gets an injected publish
// failure.
func (s *Server) injectError() bool {
	return s.opts.ErrorRate > 0 && s.dice.float() < s.opts.ErrorRate
}
