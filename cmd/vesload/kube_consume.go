package main

import (
	"strconv"

	"github.com/vesload/vesload/deploy/kube"
	"github.com/vesload/vesload/profiles"
)

// kubeConsumer turns run's --consume flags into the consumer pod of a
// run on Kubernetes (vesload consume beside the shards); nil without
// --consume. A constant rate and a wall-clock start give the consumer
// the due times for end to end; other shapes, and a start the shards
// agree on among themselves, are followed without them.
func kubeConsumer(o *runOptions, sc *profiles.Profile, wallClock bool, changed func(string) bool) (*kube.Consumer, error) {
	c := &o.consume
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
	batch, err := eventsPerRequest(sc)
	if err != nil {
		return nil, err
	}
	k := &kube.Consumer{URL: c.url, Args: []string{"--grace", c.grace.String(), "--batch", strconv.Itoa(batch)}}
	if l := sc.Load; wallClock && l.RPS > 0 && len(l.Stages) == 0 && l.Ramp == nil && l.Closed == nil {
		k.Args = append(k.Args, "--rps", strconv.FormatFloat(l.RPS, 'g', -1, 64))
	}
	if c.group != "" {
		k.Args = append(k.Args, "--group", c.group)
	}
	if changed("kafka-mechanism") {
		k.Args = append(k.Args, "--kafka-mechanism", c.mechanism)
	}
	if c.insecure {
		k.Args = append(k.Args, "--kafka-insecure")
	}
	return k, nil
}
