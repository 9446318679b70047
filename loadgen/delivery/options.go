package delivery

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/kafkaconf"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/internal/usage"
)

// Options say where a run's events are read and how to reach the
// brokers: vesload's --consume and --kafka-* options, shared by `run`,
// `hv` and `consume`, whose names the errors use.
type Options struct {
	// URL is kafka://HOST:PORT/TOPIC, kafkas:// (TLS) or
	// dmaap://HOST:PORT/events/TOPIC/GROUP/ID.
	URL string
	// Group is the Kafka consumer group (default vesload-<run id>).
	Group                         string
	User, PasswordFile, Mechanism string
	TLS                           tlsconf.Options
}

// Check validates the options before anything starts.
func (o Options) Check() error {
	if err := kafkaconf.CheckMechanism(o.Mechanism); err != nil {
		return usage.Errorf("--kafka-mechanism: %v", err)
	}
	if o.URL != "" {
		if _, err := o.endpoint(); err != nil {
			return err
		}
	}
	if o.User != "" || o.PasswordFile != "" {
		if o.User == "" {
			return usage.Errorf("--kafka-password-file: needs --kafka-user")
		}
		if _, err := kafkaconf.ReadPassword(o.PasswordFile); err != nil {
			return usage.Errorf("--kafka-password-file: %v", err)
		}
	}
	for _, f := range []struct{ flag, path string }{{"--kafka-cacert", o.TLS.CAFile}, {"--kafka-cert", o.TLS.CertFile}, {"--kafka-key", o.TLS.KeyFile}} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return usage.Errorf("%s: %v", f.flag, err)
		}
	}
	return nil
}

// endpoint is a parsed URL: Kafka's, or DMaaP's HTTP endpoint.
type endpoint struct {
	kafka kafkaconf.Endpoint
	dmaap string
}

func (o Options) endpoint() (endpoint, error) {
	if strings.HasPrefix(o.URL, "dmaap") {
		e, err := ParseDMaaPURL(o.URL)
		if err != nil {
			return endpoint{}, usage.Errorf("--consume: %v", err)
		}
		return endpoint{dmaap: e}, nil
	}
	if scheme, _, _ := strings.Cut(o.URL, "://"); scheme != "kafka" && scheme != "kafkas" {
		return endpoint{}, usage.Errorf("--consume %q: want kafka://HOST:PORT/TOPIC, kafkas://HOST:PORT/TOPIC (TLS) or dmaap://HOST:PORT/events/TOPIC/GROUP/ID", o.URL)
	}
	e, err := kafkaconf.ParseURL(o.URL)
	if err == nil && e.Topic == "" {
		err = errors.New("want kafka://HOST:PORT/TOPIC: the topic is missing")
	}
	if err != nil {
		return endpoint{}, usage.Errorf("--consume: %v", err)
	}
	return endpoint{kafka: e}, nil
}

// source builds the consumer of the URL for run runID.
func (o Options) source(runID string) (Source, error) {
	e, err := o.endpoint()
	if err != nil {
		return nil, err
	}
	if e.dmaap != "" {
		pass := ""
		if o.User != "" {
			if pass, err = kafkaconf.ReadPassword(o.PasswordFile); err != nil {
				return nil, usage.Errorf("--kafka-password-file: %v", err)
			}
		}
		tc, err := o.TLS.Client("")
		if err != nil {
			return nil, usage.Errorf("--kafka-cacert/--kafka-cert: %v", err)
		}
		return NewDMaaP(e.dmaap, o.User, pass, tc), nil
	}
	opts, err := kafkaconf.Config{Brokers: e.kafka.Brokers, User: o.User, PasswordFile: o.PasswordFile,
		Mechanism: o.Mechanism, TLS: o.TLS, ForceTLS: e.kafka.TLS}.Opts()
	if err != nil {
		return nil, usage.Errorf("--consume: %v", err)
	}
	group := o.Group
	if group == "" {
		group = "vesload-" + runID
	}
	return NewKafka(opts, e.kafka.Topic, group)
}

// Open connects the source of the URL for run runID and checks, within
// timeout, that it can be read: every event of the run is after this.
func (o Options) Open(runID string, timeout time.Duration) (Source, error) {
	src, err := o.source(runID)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := src.Preflight(ctx); err != nil {
		src.Close()
		return nil, fmt.Errorf("--consume %s: preflight: %w", o.URL, err)
	}
	return src, nil
}
