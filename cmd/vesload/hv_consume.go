package main

import (
	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/transport/hv"
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
	return c.delivery(hvPlan(cfg)), nil
}

// hvPlan is what a follower of an HV-VES run is told: every message of
// every producer, due at its producer's interval.
func hvPlan(cfg *hv.Config) delivery.Plan {
	producers := uint64(max(cfg.Producers, 1))
	return delivery.Plan{RunID: cfg.RunID, Events: producers * uint64(max(cfg.Messages, 0)),
		NoAnswers: true, Sources: producers, Interval: cfg.Interval}
}

// hvAgreed is what shard 0 of an HV-VES run tells its lone consumer: the
// whole run's plan and how long it sends.
func hvAgreed(cfg *hv.Config) delivery.Agreed {
	return delivery.Agreed{Plan: hvPlan(cfg), Span: cfg.Span() + cfg.Interval}
}
