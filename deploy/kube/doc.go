// Package kube renders the Kubernetes manifests of a sharded run: an
// Indexed Job whose pods are the shards (each reads its index from
// JOB_COMPLETION_INDEX), a ConfigMap with the scenario, a headless
// Service and a PodMonitor for the shards' live metrics.
//
// Kubernetes is the distributed engine: there is no operator. The pods
// agree on the instant the one global schedule starts when they are all
// running, not when the manifests are rendered: shard 0 gathers every
// shard's ready signal through the Job's headless Service and answers all
// of them with one instant (loadgen/rendezvous), so a slow image pull or
// a pending pod delays the start instead of skewing it. Each pod sends
// its share of the schedule; `vesload merge -` combines the pods' logs
// into one result (docs/ARCHITECTURE.md, "Many generators").
//
// The package only renders: it reads no files and talks to no cluster.
// Secrets never reach its output: the password is read by each pod from
// a Secret the manifests name, never from the ConfigMap or the arguments.
package kube
