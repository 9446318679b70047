package kubespec

import (
	"fmt"
	"maps"
	"slices"
)

// refused are the run's flags that mean nothing in a pod, with what to do
// instead.
var refused = map[string]string{
	"output":           "each shard writes its result to its log; merge them with 'kubectl logs … | vesload merge -'",
	"junit":            "render reports from the merged result",
	"html":             "render reports from the merged result",
	"markdown":         "render reports from the merged result",
	"csv":              "render reports from the merged result",
	"jtl":              "not available on Kubernetes",
	"hdr-log":          "not available on Kubernetes",
	"checkpoint":       "each shard writes its result to its log",
	"shard":            "the pods take their shard from the Indexed Job",
	"password-file":    "the file is on this machine: give --password-secret NAME",
	"cert":             "the file is on this machine and holds a key: give --cert-secret NAME",
	"key":              "the file is on this machine and holds a key: give --cert-secret NAME",
	"cert-pass-file":   "the file is on this machine: give --cert-secret NAME",
	"target-pid":       "the target is not a process in the shard's pod: use --target-metrics",
	"target-process":   "the target is not a process in the shard's pod: use --target-metrics",
	"metrics-addr":     "every shard serves its metrics on port 9464",
	"rendezvous":       "the shards agree on their start through shard 0 of the Job; give --start-at for a wall-clock start instead",
	"with-consumer":    "--consume renders the consumer's pod and tells the shards about it",
	"result-dir":       "give --results-claim NAME: every pod writes its result into that PersistentVolumeClaim",
	"baseline":         "judge the merged result instead: vesload compare BASE.json --vs merged.json --gate EXPR",
	"gate":             "goes with --baseline: judge the merged result with vesload compare --gate",
	"alpha":            "goes with --baseline: judge the merged result with vesload compare --alpha",
	"gate-undecided":   "goes with --baseline: judge the merged result with vesload compare --gate-undecided",
	"dry-run":          "run 'vesload --dry-run' with the same flags here: the manifests are the dry run of a Kubernetes run",
	"dry-run-requests": "goes with --dry-run: run 'vesload --dry-run' with the same flags here",
	// --consume is rendered as one more pod (vesload consume); files on
	// this machine cannot follow it there.
	"kafka-user":                   "the password would have to reach the consumer's pod: not available on Kubernetes yet",
	"kafka-password-file":          "the file is on this machine: not available on Kubernetes yet",
	"kafka-cacert":                 "the file is on this machine: not available on Kubernetes yet (--kafka-insecure, or a broker without TLS)",
	"kafka-cert":                   "the file is on this machine and holds a key: not available on Kubernetes yet",
	"kafka-key":                    "the file is on this machine and holds a key: not available on Kubernetes yet",
	"target-metrics-user":          "the password would have to reach the pods: not available on Kubernetes yet (scrape an endpoint without auth, or use --prom-url)",
	"target-metrics-password-file": "the file is on this machine: not available on Kubernetes yet",
}

// CheckFlags refuses the flags of `vesload kube` (given says which were
// given) that a run on Kubernetes cannot honour, saying what to do
// instead: a run flag that means nothing in a pod or would put a local
// file or a secret into the manifests, a user without the Secret holding
// the password, an option without the flag it goes with. It exists so
// that what a Kubernetes run supports is decided beside the manifests
// that carry it.
func CheckFlags(given func(flag string) bool, user, passwordSecret string) error {
	for _, name := range slices.Sorted(maps.Keys(refused)) {
		if given(name) {
			return fmt.Errorf("--%s: %s", name, refused[name])
		}
	}
	if given("user") && passwordSecret == "" {
		return needPasswordSecret(user)
	}
	for _, p := range [][2]string{{"password-secret-key", "password-secret"}, {"cert-secret-format", "cert-secret"}} {
		if given(p[0]) && !given(p[1]) {
			return fmt.Errorf("--%s goes with --%s", p[0], p[1])
		}
	}
	if given("ready-timeout") && given("start-at") {
		return fmt.Errorf("--ready-timeout: the shards wait for each other only without --start-at")
	}
	return nil
}
