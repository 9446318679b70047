package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/internal/usage"
	"github.com/vesload/vesload/loadgen/probe"
	"github.com/vesload/vesload/report"
)

const probeSynopsis = "vesload probe URL|tls://HOST:PORT|HOST:PORT [--sink URL] [--bulk-mib N] [--cacert F] [--cert F (--key F | --cert-pass-file F)] [--json]"

// runProbe measures the link to a target before a load test.
func runProbe(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var o probe.Options
	var t tlsconf.Options
	var bulkMiB int
	var asJSON bool
	fs := newFlagSet("probe")
	fs.IntVar(&o.Connects, "connects", 5, "how many TCP connections to time")
	fs.StringVar(&o.Sink, "sink", "", "URL of a 'vesload serve --sink' listener (http://HOST:PORT/sink) to measure bulk throughput to")
	fs.IntVar(&bulkMiB, "bulk-mib", 32, "MiB to send to the sink")
	fs.DurationVar(&o.Timeout, "timeout", 10*time.Second, "bound of each step")
	fs.StringVar(&t.CAFile, "cacert", "", "PEM CA bundle to verify an https target with")
	fs.StringVar(&t.CertFile, "cert", "", "client certificate (PEM, or a PKCS#12 store)")
	fs.StringVar(&t.KeyFile, "key", "", "PEM client key")
	fs.StringVar(&t.CertPassFile, "cert-pass-file", "", "file holding the password of a PKCS#12 --cert store (first line)")
	fs.BoolVar(&t.Insecure, "insecure", false, "skip TLS certificate verification")
	fs.BoolVar(&asJSON, "json", false, "print the figures as one JSON document")
	if code, done := parseCommand(fs, args, probeSynopsis, stdout, stderr); done {
		return code
	}
	if err := probeArgs(fs.Args(), &o, bulkMiB); err != nil {
		return fail(stderr, "vesload probe", usage.Wrap(err))
	}
	if err := o.SetTLS(t); err != nil {
		return fail(stderr, "vesload probe", usage.Wrap(err))
	}
	r, err := probe.Run(ctx, o)
	if err != nil {
		// What was measured before the failing step is still printed.
		if r != nil && !asJSON {
			_ = report.WriteProbe(stdout, r) // the step's error is the one line to give
		}
		return fail(stderr, "vesload probe", err)
	}
	if err := report.WriteProbeAs(stdout, r, asJSON); err != nil {
		return fail(stderr, "vesload probe", err)
	}
	return exitOK
}

// probeArgs takes the one target from args and checks the options.
func probeArgs(args []string, o *probe.Options, bulkMiB int) error {
	if len(args) != 1 {
		return fmt.Errorf("want one target (usage: %s)", probeSynopsis)
	}
	o.Target, o.BulkBytes = args[0], int64(bulkMiB)<<20
	return o.Check()
}
