// Package kafkaconf turns vesload's Kafka settings (brokers, TLS, SASL)
// into franz-go client options, so that the emulator's publisher and the
// delivery consumer connect the same way. It reads the password file and
// nothing else; errors never contain the password.
package kafkaconf

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/vesload/vesload/internal/inputfile"
	"github.com/vesload/vesload/internal/tlsconf"
)

// SASL mechanisms understood by Mechanism. ONAP's Strimzi uses
// SCRAM-SHA-512.
const (
	PLAIN       = "PLAIN"
	SCRAMSHA512 = "SCRAM-SHA-512"
	SCRAMSHA256 = "SCRAM-SHA-256"
)

// Config is how to reach a Kafka cluster.
type Config struct {
	// Brokers are the bootstrap HOST:PORT addresses.
	Brokers []string
	// User and PasswordFile turn SASL on; Mechanism is PLAIN,
	// SCRAM-SHA-512 (the default with a user) or SCRAM-SHA-256.
	User, PasswordFile, Mechanism string
	// TLS turns TLS on when any of its settings is given.
	TLS tlsconf.Options
	// ForceTLS turns TLS on with the system roots when TLS is empty
	// (kafkas:// URLs).
	ForceTLS bool
}

// Opts returns the franz-go options for c: seed brokers, TLS and SASL.
func (c Config) Opts() ([]kgo.Opt, error) {
	if len(c.Brokers) == 0 {
		return nil, errors.New("no Kafka broker given")
	}
	opts := []kgo.Opt{kgo.SeedBrokers(c.Brokers...)}
	if c.TLS.Enabled() || c.ForceTLS {
		tc, err := c.TLS.Client("")
		if err != nil {
			return nil, fmt.Errorf("kafka TLS: %w", err)
		}
		opts = append(opts, kgo.Dialer(tlsDialer{cfg: tc, stall: handshakeStall}.dial))
	}
	m, err := c.mechanism()
	if err != nil {
		return nil, err
	}
	if m != nil {
		opts = append(opts, kgo.SASL(m))
	}
	return opts, nil
}

// CheckMechanism reports whether name is a supported SASL mechanism
// (case-insensitive; empty means the default).
func CheckMechanism(name string) error {
	switch strings.ToUpper(name) {
	case "", PLAIN, SCRAMSHA512, SCRAMSHA256:
		return nil
	}
	return fmt.Errorf("unknown SASL mechanism %q: want %s, %s or %s", name, PLAIN, SCRAMSHA512, SCRAMSHA256)
}

func (c Config) mechanism() (sasl.Mechanism, error) {
	if err := CheckMechanism(c.Mechanism); err != nil {
		return nil, err
	}
	if c.User == "" {
		if c.PasswordFile != "" {
			return nil, errors.New("a Kafka password file needs a Kafka user")
		}
		return nil, nil
	}
	pass, err := ReadPassword(c.PasswordFile)
	if err != nil {
		return nil, err
	}
	switch strings.ToUpper(c.Mechanism) {
	case PLAIN:
		return plain.Auth{User: c.User, Pass: pass}.AsMechanism(), nil
	case SCRAMSHA256:
		return scram.Auth{User: c.User, Pass: pass}.AsSha256Mechanism(), nil
	}
	return scram.Auth{User: c.User, Pass: pass}.AsSha512Mechanism(), nil
}

// ReadPassword reads the first line of a password file (trailing newline
// and spaces dropped). An empty path is an error: SASL needs a password.
func ReadPassword(path string) (string, error) {
	if path == "" {
		return "", errors.New("a Kafka user needs a password file")
	}
	return inputfile.SecretLine(path, "Kafka password file")
}

// Endpoint is a parsed kafka://HOST:PORT[,HOST:PORT…][/TOPIC] URL.
type Endpoint struct {
	Brokers []string
	Topic   string
	TLS     bool // kafkas://
}

// ParseURL parses kafka://HOST:PORT[,HOST:PORT…][/TOPIC] (kafkas:// for
// TLS). Every broker needs a port.
func ParseURL(raw string) (Endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// Go's parser names its own terms ("invalid port \":x\" after
		// host"); the line says what to write.
		return Endpoint{}, errors.New("not a URL: want kafka://HOST:PORT/TOPIC")
	}
	var e Endpoint
	switch u.Scheme {
	case "kafka":
	case "kafkas":
		e.TLS = true
	default:
		return e, fmt.Errorf("want kafka://HOST:PORT/TOPIC, got scheme %q", u.Scheme)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return e, errors.New("want kafka://HOST:PORT/TOPIC: no credentials, query or fragment (use --kafka-user and --kafka-password-file)")
	}
	for _, b := range strings.Split(u.Host, ",") {
		host, port, err := net.SplitHostPort(b)
		if err != nil || host == "" || port == "" {
			return e, fmt.Errorf("broker %q: want HOST:PORT", b)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return e, fmt.Errorf("broker %q: port %s out of range (want 1 to 65535)", b, port)
		}
		e.Brokers = append(e.Brokers, b)
	}
	e.Topic = strings.TrimPrefix(u.Path, "/")
	if strings.Contains(e.Topic, "/") {
		return e, fmt.Errorf("topic %q: want one topic name", e.Topic)
	}
	return e, nil
}
