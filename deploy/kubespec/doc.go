// Package kubespec turns a run's resolved scenario and its Kubernetes
// options into the kube.Spec that deploy/kube renders: the scenario as the
// pods read it (the password from a Secret through $VESLOAD_PASSWORD, the
// client certificate from the Secret they mount, the files it names on
// this machine shipped in the ConfigMap), the samplers given beside the
// profile, the probe's TLS flags and the consumer pod's arguments.
//
// It exists so that what may reach the manifests is decided in one place,
// apart from the flags: it refuses anything that would write a secret
// into them (credentials in a URL, a credential header, a client key
// without its Secret) and anything a pod cannot do (sample a process of
// this machine).
//
// Like deploy/kube it talks to no cluster; the only files it reads are
// the ones the scenario names, through the ReadFile it is given.
// Its errors name the vesload flag that gave the value, as the command
// line prints them.
package kubespec
