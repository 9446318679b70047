package main

import (
	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/deploy/kubespec"
	"github.com/vesload/vesload/profiles"
)

// kubeConsumer turns the --consume flags into the consumer pod of a run
// on Kubernetes (kubespec.ConsumerPod); nil without --consume. batch is
// the events each request carries, load the run's shape.
func kubeConsumer(c *consumeOptions, batch func() (int, error), load profiles.Shape, wallClock bool, changed func(string) bool) (*kube.Consumer, error) {
	if c.url == "" {
		for _, f := range []string{"consume-grace", "consume-group", "kafka-mechanism", "kafka-insecure"} {
			if changed(f) {
				return nil, usagef("--%s goes with --consume", f)
			}
		}
		return nil, nil
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	if load.Closed != nil {
		return nil, usagef("--consume: needs an open-model load (a rate), not a concurrency ramp")
	}
	n, err := batch()
	if err != nil {
		return nil, err
	}
	kc := kubespec.Consumer{URL: c.url, Grace: c.grace, Group: c.group, Insecure: c.insecure, Batch: n}
	if changed("kafka-mechanism") {
		kc.Mechanism = c.mechanism
	}
	return kubespec.ConsumerPod(kc, load, wallClock), nil
}
