package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/transport/hv"
)

// startHVCounters follows the HV-VES collector's own counters through
// --target-metrics (hv.CollectorFollower); nil without a URL. The
// collector's CPU and memory are the engine's target sampler's, as for a
// REST run.
func startHVCounters(ctx context.Context, metricsURL string, opts tlsconf.Options) (*hv.CollectorFollower, error) {
	if metricsURL == "" {
		return nil, nil
	}
	c, err := hv.NewCollectorFollower(metricsURL, opts, nil)
	switch {
	case errors.Is(err, hv.ErrMetricsURL):
		return nil, usagef("--target-metrics: %v", err)
	case err != nil:
		return nil, usage.Wrap(err)
	}
	if err := c.Start(ctx); err != nil {
		return nil, fmt.Errorf("--target-metrics: %w", err)
	}
	return c, nil
}
