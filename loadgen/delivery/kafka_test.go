package delivery

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/vesload/vesload/internal/kafkaconf"
	"github.com/vesload/vesload/internal/testcert"
	"github.com/vesload/vesload/internal/tlsconf"
	"github.com/vesload/vesload/internal/waitfor"
	"github.com/vesload/vesload/testserver/publish"
)

const faultTopic = "unauthenticated.SEC_FAULT_OUTPUT"

func produce(t *testing.T, broker string, values ...string) {
	t.Helper()
	p, err := kgo.NewClient(kgo.SeedBrokers(broker), kgo.DefaultProduceTopic(faultTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, v := range values {
		if err := p.ProduceSync(ctx, &kgo.Record{Value: []byte(v)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
}

func event(id string) string {
	return `{"event":{"commonEventHeader":{"domain":"fault","eventId":"` + id + `"}}}`
}

func TestKafkaFollowsFromTheEnd(t *testing.T) {
	t.Parallel()
	b, err := publish.StartBroker("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	produce(t, b.Addr(), event("run-ab12-0"), event("run-ab12-1")) // before the run: not its delivery
	k, err := NewKafka([]kgo.Opt{kgo.SeedBrokers(b.Addr())}, faultTopic, "vesload-test")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := k.Preflight(ctx); err != nil {
		t.Fatal(err)
	}
	tl := newTally(t, 100, 1)
	var values []string
	for i := range 50 {
		values = append(values, event(fmt.Sprintf("run-ab12-%d", i)))
	}
	values = append(values, event("someone-else-1"), event("run-ab12-7"))
	produce(t, b.Addr(), values...)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- k.Run(runCtx, tl, time.Now) }()
	select {
	case <-tl.Expect(50):
	case <-ctx.Done():
		t.Fatalf("only %d of 50 events read", tl.Delivered())
	}
	// The trailing records (one foreign, one duplicate) come with a
	// later poll.
	waitfor.Until(t, 10*time.Second, "the 52 records read", func() bool {
		tl.mu.Lock()
		defer tl.mu.Unlock()
		return tl.total >= 52
	})
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	d, err := tl.Result("kafka://"+b.Addr()+"/"+faultTopic, 50, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if d.Delivered != 50 || d.Lost != 0 || d.Foreign != 1 || d.Duplicates != 1 || d.Records != 52 {
		t.Errorf("%+v: want 50 delivered, 1 foreign, 1 duplicate, 52 records (none from before the run)", d)
	}
	if d.TimestampType != "CreateTime" || d.E2E.Count != 50 || d.LagMax < 0 {
		t.Errorf("timestamps %s, e2e %+v, lag max %d", d.TimestampType, d.E2E, d.LagMax)
	}
}

func TestKafkaPreflightFailures(t *testing.T) {
	t.Parallel()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(),
		kfake.Superuser(kafkaconf.SCRAMSHA512, "ves", "pw-R1ght"), kfake.SeedTopics(1, faultTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close) // after the parallel subtests
	dir := t.TempDir()
	pw := func(name, pass string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(pass+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, bad := pw("good", "pw-R1ght"), pw("bad", "pw-Wr0ng")
	broker := c.ListenAddrs()[0]
	tests := []struct {
		name    string
		conf    kafkaconf.Config
		topic   string
		wantErr string
	}{
		{"right credentials", kafkaconf.Config{Brokers: []string{broker}, User: "ves", PasswordFile: good}, faultTopic, ""},
		{"wrong password", kafkaconf.Config{Brokers: []string{broker}, User: "ves", PasswordFile: bad}, faultTopic, "wrong credentials"},
		{"wrong topic", kafkaconf.Config{Brokers: []string{broker}, User: "ves", PasswordFile: good}, "nope", "nope"},
		{"no broker", kafkaconf.Config{Brokers: []string{"127.0.0.1:1"}}, faultTopic, faultTopic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts, err := tt.conf.Opts()
			if err != nil {
				t.Fatal(err)
			}
			k, err := NewKafka(opts, tt.topic, "g-"+strings.ReplaceAll(tt.name, " ", "-"))
			if err != nil {
				t.Fatal(err)
			}
			defer k.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			err = k.Preflight(ctx)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("preflight: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("preflight error %v, want one mentioning %q", err, tt.wantErr)
			case strings.Contains(fmt.Sprint(err), "pw-"):
				t.Fatalf("preflight error %q shows the password", err)
			}
		})
	}
}

// TestKafkaOverTLS checks the consumer's TLS: verified against the CA
// file, refused without it.
func TestKafkaOverTLS(t *testing.T) {
	t.Parallel()
	certFile, keyFile, _ := testcert.Write(t)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, faultTopic),
		kfake.TLS(&tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	broker := c.ListenAddrs()[0]
	for _, tt := range []struct {
		name string
		conf kafkaconf.Config
		ok   bool
	}{
		{"verified with the CA file", kafkaconf.Config{Brokers: []string{broker}, TLS: tlsconf.Options{CAFile: certFile}}, true},
		{"unknown authority", kafkaconf.Config{Brokers: []string{broker}, ForceTLS: true}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts, err := tt.conf.Opts()
			if err != nil {
				t.Fatal(err)
			}
			k, err := NewKafka(opts, faultTopic, "g-tls")
			if err != nil {
				t.Fatal(err)
			}
			defer k.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if err := k.Preflight(ctx); (err == nil) != tt.ok {
				t.Fatalf("preflight: %v, want success %v", err, tt.ok)
			}
		})
	}
}

// TestKafkaTLSToPlaintext checks that a TLS client of a plaintext broker
// learns so within about a second, in words that name plaintext, rather
// than waiting out the dial timeout for a handshake that never ends.
func TestKafkaTLSToPlaintext(t *testing.T) {
	t.Parallel()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, faultTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	opts, err := kafkaconf.Config{Brokers: c.ListenAddrs(), ForceTLS: true}.Opts()
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewKafka(opts, faultTopic, "g-tls-plain")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	err = k.Preflight(ctx)
	took := time.Since(start)
	t.Logf("after %v: %v", took, err)
	if err == nil || !strings.Contains(err.Error(), "plaintext") {
		t.Fatalf("preflight error %v, want one naming plaintext", err)
	}
	if took > 2*time.Second {
		t.Errorf("preflight took %v to find a plaintext broker, want about a second", took)
	}
}
