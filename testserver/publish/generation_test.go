package publish

import (
	"strings"
	"testing"
	"time"
)

func TestConfigCheck(t *testing.T) {
	t.Parallel()
	ok := Config{Buffer: DefaultBuffer, MaxBlock: DefaultMaxBlock}
	tests := []struct {
		name string
		edit func(c *Config)
		want string // "" when valid
	}{
		{"no publishing", func(*Config) {}, ""},
		{"embedded", func(c *Config) { c.Embedded, c.Drop, c.Delay, c.BeforeAck = "127.0.0.1:0", 0.5, time.Second, true }, ""},
		{"external", func(c *Config) { c.URL = "kafka://127.0.0.1:9092" }, ""},
		{"both", func(c *Config) { c.Embedded, c.URL = "127.0.0.1:0", "kafka://127.0.0.1:9092" }, "--kafka-embedded and --publish: give only one"},
		{"bad URL", func(c *Config) { c.URL = "http://x" }, "--publish: "},
		{"topic", func(c *Config) { c.URL = "kafka://127.0.0.1:9092/topic" }, "--publish: want kafka://HOST:PORT without a topic"},
		{"drop above 1", func(c *Config) { c.Embedded, c.Drop = "127.0.0.1:0", 1.5 }, "--publish-drop: want a fraction between 0 and 1, got 1.5"},
		{"drop negative", func(c *Config) { c.Embedded, c.Drop = "127.0.0.1:0", -0.1 }, "--publish-drop: want a fraction"},
		{"negative delay", func(c *Config) { c.Embedded, c.Delay = "127.0.0.1:0", -time.Second }, "--publish-delay: must not be negative, got -1s"},
		{"zero max block", func(c *Config) { c.MaxBlock = 0 }, "--publish-max-block: must be positive, got 0s"},
		{"zero buffer", func(c *Config) { c.Buffer = 0 }, "--publish-buffer: want at least 1, got 0"},
		{"drop without a broker", func(c *Config) { c.Drop = 0.1 }, "need --kafka-embedded or --publish"},
		{"before ack without a broker", func(c *Config) { c.BeforeAck = true }, "--compat kafka need --kafka-embedded or --publish"},
	}
	for _, tt := range tests {
		c := ok
		tt.edit(&c)
		err := c.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.want)
		}
	}
}

// A generation with an embedded broker publishes what the emulator hands
// it, says so in its start line and counts it in its closing one.
func TestGeneration(t *testing.T) {
	t.Parallel()
	if g, err := StartGeneration(Config{}); g != nil || err != nil {
		t.Fatalf("no publishing: %v, %v; want nil, nil", g, err)
	}
	g, err := StartGeneration(Config{Embedded: "127.0.0.1:0", Buffer: 16, MaxBlock: time.Second,
		BeforeAck: true, Drop: 0.25, Seed: 7, Delay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	desc := g.Describe()
	want := "publishing to embedded Kafka at " + g.Brokers() + ", answer before the broker acknowledges, drop 0.25 (seed 7), delay 1ms"
	if desc != want {
		t.Errorf("Describe %q, want %q", desc, want)
	}
	const n = 8
	for i := range n {
		body := `{"event":{"commonEventHeader":{"domain":"fault","eventId":"g-` + string(rune('a'+i)) + `"}}}`
		if err := g.Publish([]byte(body), false, nil); err != nil {
			t.Fatal(err)
		}
	}
	g.PublishRecord("hv-topic", []byte("x"))
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	st := g.pub.Stats()
	if st.Published+st.Dropped != n+1 || st.Dropped == 0 {
		t.Errorf("stats %+v: want %d events published or dropped, some dropped", st, n+1)
	}
	sum := g.Summary()
	if !strings.HasPrefix(sum, "kafka: ") || !strings.Contains(sum, " dropped, 0 unrouted, 0 failed, 0 requests stalled") {
		t.Errorf("Summary %q", sum)
	}
	if _, err := StartGeneration(Config{Embedded: "256.0.0.1:0", Buffer: 1, MaxBlock: time.Second}); err == nil {
		t.Error("an address that cannot be listened on: want an error")
	}
}
