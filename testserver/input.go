package testserver

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/inputfile"
)

// Input is an emulator's configuration as a command line gives it
// (`vesload serve`): the Options that map one to one, and the values that
// arrive as text or in files. Check turns it into Options. It exists so
// that bad values are refused before anything starts, with errors that
// name the vesload serve flag each value comes from (Start's own checks
// name Options fields instead).
type Input struct {
	// Options are taken as they are, except Auth, Stall and StallAt,
	// which Check sets from AuthText or AuthFile and from Stall, and
	// AuthCost, which only counts with auth.
	Options
	// AuthText is USER:PASS (--auth); AuthFile names a file holding it
	// (--auth-file). At most one is set.
	AuthText, AuthFile string
	// Stall is DURATION@START (--stall, e.g. 2s@10s); empty for none.
	Stall string
	// QueueGiven says BackendQueue was given: a given 0 means no queue at
	// all, not the default.
	QueueGiven bool
}

// Check validates the input and returns the emulator's Options; every
// error names its flag and none echoes a credential.
func (in Input) Check() (Options, error) {
	o := in.Options
	switch strings.ToLower(o.Compat) {
	case CompatV72, CompatLegacy, "none":
	default:
		return o, fmt.Errorf("--compat: want v7.2, legacy or kafka, got %q", o.Compat)
	}
	if err := CheckStreams(o.Streams); err != nil {
		return o, fmt.Errorf("--streams: %w", err)
	}
	if !(o.ErrorRate >= 0 && o.ErrorRate <= 1) {
		return o, fmt.Errorf("--error-rate: want a fraction between 0 and 1, got %v", o.ErrorRate)
	}
	if err := in.checkCounts(&o); err != nil {
		return o, err
	}
	if err := in.checkDurations(); err != nil {
		return o, err
	}
	var err error
	if o.Stall, o.StallAt, err = ParseStall(in.Stall); err != nil {
		return o, fmt.Errorf("--stall: %w", err)
	}
	if o.Auth, err = in.credentials(); err != nil {
		return o, err
	}
	if err := in.checkTLS(); err != nil {
		return o, err
	}
	return o, in.checkCertBasicAuth(&o)
}

// checkCertBasicAuth checks --auth-cost, --client-ca and --http-listen,
// which only mean something with auth (and the last two with TLS).
func (in *Input) checkCertBasicAuth(o *Options) error {
	if c := in.AuthCost; c != 0 && (c < 4 || c > MaxAuthCost) {
		return fmt.Errorf("--auth-cost: want 4..%d, or 0 for a plain comparison, got %d", MaxAuthCost, c)
	}
	if o.Auth == "" {
		o.AuthCost = 0
	}
	for _, c := range []struct{ flag, v string }{{"--client-ca", in.ClientCAFile}, {"--http-listen", in.HTTPAddr}} {
		if c.v != "" && (o.Auth == "" || in.TLSCertFile == "") {
			return fmt.Errorf("%s: needs --tls-cert and --auth or --auth-file (the certBasicAuth setup)", c.flag)
		}
	}
	return nil
}

func (in *Input) checkCounts(o *Options) error {
	if in.BackendPool < 1 {
		return fmt.Errorf("--backend-pool: want at least 1, got %d", in.BackendPool)
	}
	if in.BackendQueue < 0 {
		return fmt.Errorf("--backend-queue: must not be negative, got %d", in.BackendQueue)
	}
	if in.QueueGiven && in.BackendQueue == 0 {
		o.BackendQueue = -1 // a given 0: no queue at all
	}
	return nil
}

func (in *Input) checkDurations() error {
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--publish-time", in.PublishTime}, {"--latency", in.Latency}, {"--jitter", in.Jitter}} {
		if d.v < 0 {
			return fmt.Errorf("%s: must not be negative, got %v", d.flag, d.v)
		}
	}
	if in.Jitter > in.Latency {
		// latency ± jitter would ask for negative delays, which the
		// emulator could only clamp to 0 and so skew the spread.
		return fmt.Errorf("--jitter %v: must not exceed --latency %v (the delay is latency ± jitter)", in.Jitter, in.Latency)
	}
	return nil
}

// credentials returns USER:PASS from AuthText or AuthFile.
func (in *Input) credentials() (string, error) {
	if in.AuthText != "" && in.AuthFile != "" {
		return "", errors.New("--auth and --auth-file: give only one")
	}
	cred, flag := in.AuthText, "--auth"
	if in.AuthFile != "" {
		b, err := inputfile.ReadFile(in.AuthFile, "--auth-file", inputfile.Secret)
		if err != nil {
			return "", err
		}
		cred, flag = strings.TrimSpace(string(b)), "--auth-file"
	}
	if cred == "" && in.AuthFile == "" {
		return "", nil
	}
	if user, _, ok := strings.Cut(cred, ":"); !ok || user == "" {
		return "", fmt.Errorf("%s: want USER:PASS", flag) // never echo the value: it holds a password
	}
	return cred, nil
}

func (in *Input) checkTLS() error {
	if in.TLSCertFile == "" && in.TLSKeyFile == "" {
		return nil
	}
	if in.TLSCertFile == "" || in.TLSKeyFile == "" {
		return errors.New("--tls-cert and --tls-key: give both")
	}
	if _, err := inputfile.KeyPair(in.TLSCertFile, in.TLSKeyFile); err != nil {
		return fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	return nil
}

// ParseStall parses the D@T notation of a stall ("2s@10s": freeze every
// answer for 2s, 10s after start) into Options.Stall and StallAt; the
// empty string means no stall.
func ParseStall(s string) (stall, at time.Duration, err error) {
	if s == "" {
		return 0, 0, nil
	}
	ds, ts, ok := strings.Cut(s, "@")
	if !ok {
		return 0, 0, fmt.Errorf("want DURATION@START such as 2s@10s, got %q", s)
	}
	if stall, err = time.ParseDuration(ds); err != nil || stall <= 0 {
		return 0, 0, fmt.Errorf("duration before @ must be positive, such as 2s, got %q", ds)
	}
	if at, err = time.ParseDuration(ts); err != nil || at < 0 {
		return 0, 0, fmt.Errorf("start after @ must be a duration from start, such as 10s, got %q", ts)
	}
	return stall, at, nil
}
