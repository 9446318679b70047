// Package kube renders the Kubernetes manifests of a sharded run: an
// Indexed Job whose pods are the shards (each reads its index from
// JOB_COMPLETION_INDEX), a ConfigMap with the scenario, a headless
// Service and a PodMonitor for the shards' live metrics.
//
// Kubernetes is the distributed engine: there is no operator and no
// coordinator. Every pod starts the one global schedule at the same
// instant, computed when the manifests are rendered, and sends its share
// of it; `vesload merge -` combines the pods' logs into one result
// (docs/ARCHITECTURE.md, "Many generators").
//
// The package only renders: it reads no files and talks to no cluster.
// Secrets never reach its output: the password is read by each pod from
// a Secret the manifests name, never from the ConfigMap or the arguments.
package kube
