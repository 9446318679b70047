package main

import (
	"time"

	"github.com/vesload/vesload/loadgen"
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/hv"
	"github.com/vesload/vesload/testserver/builtin"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// startHVFollow follows the HV-VES messages onto the --consume topic (or,
// with the built-in emulator, onto its broker's route for the domain).
// HV-VES answers nothing: every message written is expected.
func startHVFollow(c *consumeOptions, cfg *hv.Config, emu *builtin.Emulator) (*follow, error) {
	if !cfg.Shard.Whole() {
		return nil, c.refuseShard()
	}
	if c.url == "" && emu != nil {
		if topic := hvemu.DefaultRoutes()[cfg.RunConfig().Event]; topic != "" {
			c.url = "kafka://" + emu.Brokers() + "/" + topic
		}
	}
	if c.url == "" {
		return nil, nil
	}
	producers := uint64(max(cfg.Producers, 1))
	return newFollow(c, delivery.Plan{RunID: cfg.RunID, Events: producers * uint64(max(cfg.Messages, 0)),
		NoAnswers: true, Sources: producers, Interval: cfg.Interval})
}

// hvFollowStart hands the follower the instant the schedule starts, from
// which the messages' due times count. It is the follower's only
// observer: HV-VES answers nothing, so no message is "accepted".
type hvFollowStart struct {
	loadgen.NopObserver
	fl *follow
}

// Begin implements loadgen.Observer.
func (h hvFollowStart) Begin(t time.Time) { h.fl.Begin(t) }
