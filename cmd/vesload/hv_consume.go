package main

import (
	"time"

	"github.com/vesload/vesload/loadgen/delivery"
	"github.com/vesload/vesload/loadgen/hv"
	hvemu "github.com/vesload/vesload/testserver/hv"
)

// startHVFollow follows the HV-VES messages onto the --consume topic (or,
// with the built-in emulator, onto its broker's route for the domain).
// HV-VES answers nothing: every message written is expected.
func startHVFollow(c *consumeOptions, cfg *hv.Config, emu *emulator) (*follow, error) {
	if c.url == "" && emu != nil {
		if topic := hvemu.DefaultRoutes()[hvDomain(cfg)]; topic != "" {
			c.url = "kafka://" + emu.Brokers() + "/" + topic
		}
	}
	if c.url == "" {
		return nil, nil
	}
	producers := uint64(max(cfg.Producers, 1))
	fl, err := newFollow(c, delivery.Plan{RunID: cfg.RunID, Events: producers * uint64(max(cfg.Messages, 0)),
		NoAnswers: true, Sources: producers, Interval: cfg.Interval})
	if err != nil {
		return nil, err
	}
	prev := cfg.OnStart
	cfg.OnStart = func(t time.Time) {
		fl.started(t)
		if prev != nil {
			prev(t)
		}
	}
	return fl, nil
}

func hvDomain(cfg *hv.Config) string {
	if cfg.Domain == "" {
		return "perf3gpp"
	}
	return cfg.Domain
}
