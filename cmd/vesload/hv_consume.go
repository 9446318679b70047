package main

import (
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/hv"
	"github.com/vesload/vesload/session"
	"github.com/vesload/vesload/testserver/builtin"
	hvemu "github.com/vesload/vesload/testserver/hv"
	"github.com/vesload/vesload/testserver/publish"
)

// hvFollow is how the HV-VES messages are followed (session.Delivery):
// onto the --consume topic or, with the built-in emulator, onto its
// broker's route for the domain; nil when nothing is followed. HV-VES
// answers nothing: every message written is expected, and the follower
// is told only the instant the schedule starts (delivery.Plan's
// NoAnswers).
func hvFollow(c *consumeOptions, cfg *hv.Config, emu *builtin.Emulator) (*session.Delivery, error) {
	if !cfg.Shard.Whole() {
		return nil, c.refuseShard()
	}
	if c.url == "" && emu != nil {
		if topic := hvemu.DefaultRoutes()[cfg.RunConfig().Event]; topic != "" {
			c.url = publish.TopicURL(emu.Brokers(), topic)
		}
	}
	if c.url == "" {
		return nil, nil
	}
	producers := uint64(max(cfg.Producers, 1))
	return c.delivery(delivery.Plan{RunID: cfg.RunID, Events: producers * uint64(max(cfg.Messages, 0)),
		NoAnswers: true, Sources: producers, Interval: cfg.Interval}), nil
}
