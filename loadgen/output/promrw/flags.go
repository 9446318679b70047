package promrw

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/inputfile"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/loadgen/output"
)

// PasswordEnv holds the basic auth password when no file is given, so
// that it stays out of process listings.
const PasswordEnv = "VESLOAD_REMOTE_WRITE_PASSWORD"

// Entry is Prometheus remote write's line in the table of outputs
// (loadgen/output/outputs).
func Entry() output.Entry {
	return output.Entry{
		Flag: "remote-write-url",
		Doc:  "`--remote-write-url`: per-second figures pushed to a Prometheus remote write endpoint (protocol 1.0, protobuf and snappy), counters as cumulative totals",
		New:  func() output.Flags { return &Flags{} },
	}
}

// Flags are the command line's remote write values (output.Flags).
type Flags struct {
	url, job, user       string
	passFile, bearerFile string
	tls                  tlsconf.Options
	timeout              time.Duration
	fs                   *pflag.FlagSet
}

var _ output.Flags = (*Flags)(nil)

// others are the flags that go with --remote-write-url.
var others = []string{"remote-write-job", "remote-write-user", "remote-write-password-file", "remote-write-bearer-file",
	"remote-write-cacert", "remote-write-cert", "remote-write-key", "remote-write-insecure", "remote-write-timeout"}

// Add implements output.Flags.
func (f *Flags) Add(fs *pflag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.url, "remote-write-url", "", "push per-second figures to a Prometheus remote write endpoint (protocol 1.0: protobuf + snappy), e.g. http://prometheus:9090/api/v1/write")
	fs.StringVar(&f.job, "remote-write-job", "vesload", "the job label of the series pushed by Prometheus remote write")
	fs.StringVar(&f.user, "remote-write-user", "", "basic auth user of Prometheus remote write")
	fs.StringVar(&f.passFile, "remote-write-password-file", "", "file holding the basic auth password of Prometheus remote write (else $"+PasswordEnv+")")
	fs.StringVar(&f.bearerFile, "remote-write-bearer-file", "", "file holding a bearer token for Prometheus remote write")
	fs.StringVar(&f.tls.CAFile, "remote-write-cacert", "", "PEM CA bundle to verify the Prometheus remote write endpoint with")
	fs.StringVar(&f.tls.CertFile, "remote-write-cert", "", "PEM client certificate for Prometheus remote write (with --remote-write-key)")
	fs.StringVar(&f.tls.KeyFile, "remote-write-key", "", "PEM client key for Prometheus remote write")
	fs.BoolVar(&f.tls.Insecure, "remote-write-insecure", false, "skip verifying the Prometheus remote write endpoint's certificate")
	fs.DurationVar(&f.timeout, "remote-write-timeout", 5*time.Second, "how long one batch of Prometheus remote write may take, retries included")
}

// Enabled implements output.Flags: --remote-write-url was given.
func (f *Flags) Enabled() bool { return f.url != "" }

func (f *Flags) changed(name string) bool { return f.fs != nil && f.fs.Changed(name) }

// alone refuses a flag of the output given without --remote-write-url.
func (f *Flags) alone() error {
	for _, name := range others {
		if f.changed(name) {
			return fmt.Errorf("--%s goes with --remote-write-url", name)
		}
	}
	return nil
}

// Check implements output.Flags: the URL, the credentials' files (read
// now, so that a missing one is refused before the run) and the TLS
// files.
func (f *Flags) Check() error {
	if f.url == "" {
		return f.alone()
	}
	if err := checkURL(f.url); err != nil {
		return fmt.Errorf("--remote-write-url: %w", err)
	}
	if f.timeout <= 0 {
		return fmt.Errorf("--remote-write-timeout %v: want a positive duration", f.timeout)
	}
	if _, err := f.config(); err != nil {
		return err
	}
	if _, err := f.tls.Client(""); err != nil {
		return fmt.Errorf("--remote-write-cacert/--remote-write-cert/--remote-write-key: %w", err)
	}
	return nil
}

// config is the writer's configuration of the flags, the password or
// token read from its file (or the password from $VESLOAD_REMOTE_WRITE_PASSWORD).
func (f *Flags) config() (Config, error) {
	c := Config{URL: f.url, Job: f.job, User: f.user, TLS: f.tls, Timeout: f.timeout}
	switch {
	case f.bearerFile != "" && (f.user != "" || f.passFile != ""):
		return c, errors.New("--remote-write-bearer-file and basic auth (--remote-write-user): give one")
	case f.bearerFile != "":
		tok, err := inputfile.SecretLine(f.bearerFile, "bearer token file")
		if err != nil {
			return c, fmt.Errorf("--remote-write-bearer-file: %w", err)
		}
		c.Bearer = tok
	case f.passFile != "":
		pass, err := inputfile.SecretLine(f.passFile, "password file")
		if err != nil {
			return c, fmt.Errorf("--remote-write-password-file: %w", err)
		}
		c.Password = pass
	case f.user != "":
		c.Password = os.Getenv(PasswordEnv)
	}
	if c.Password != "" && c.User == "" {
		return c, errors.New("--remote-write-password-file: give --remote-write-user too")
	}
	return c, nil
}

// KubeArgs implements output.Flags: the URL, job and timeout reach the
// pods; credentials and files of this machine are refused, as they
// would be written into the manifests or be missing in the pods.
func (f *Flags) KubeArgs() ([]string, error) {
	if f.url == "" {
		return nil, f.alone()
	}
	if err := checkURL(f.url); err != nil {
		return nil, fmt.Errorf("--remote-write-url: %w", err)
	}
	for _, name := range []string{"remote-write-user", "remote-write-password-file", "remote-write-bearer-file",
		"remote-write-cacert", "remote-write-cert", "remote-write-key"} {
		if f.changed(name) {
			return nil, fmt.Errorf("--%s: credentials and files of this machine would be written into the manifests: not available on Kubernetes yet", name)
		}
	}
	a := []string{"--remote-write-url", f.url, "--remote-write-job", f.job}
	if f.tls.Insecure {
		a = append(a, "--remote-write-insecure")
	}
	if f.changed("remote-write-timeout") {
		a = append(a, "--remote-write-timeout", f.timeout.String())
	}
	return a, nil
}

// Start implements output.Flags: the writer, its series labelled with
// the run's shard and id.
func (f *Flags) Start(r output.Run) (output.Output, error) {
	c, err := f.config()
	if err != nil {
		return nil, err
	}
	c.Shard, c.RunID = r.Shard, r.RunID
	w, err := New(c)
	if err != nil {
		return nil, fmt.Errorf("--remote-write-url: %w", err)
	}
	r.Note("pushing per-second figures by Prometheus remote write to " + w.String())
	return &Observer{W: w}, nil
}
