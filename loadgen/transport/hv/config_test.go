package hv

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestScheduleIsSpreadAndExact(t *testing.T) {
	cfg := Config{Producers: 4, Messages: 5, Interval: 10 * time.Millisecond}
	seen := map[uint64]bool{}
	for p := range cfg.Producers {
		for i := range cfg.Messages {
			seq := cfg.GlobalSeq(p, i)
			if seen[seq] {
				t.Fatalf("global sequence %d twice", seq)
			}
			seen[seq] = true
		}
	}
	if len(seen) != 20 {
		t.Fatalf("%d distinct sequence numbers, want 20", len(seen))
	}
	for _, c := range []struct {
		p, i int
		want time.Duration
	}{{0, 0, 0}, {1, 0, 2500 * time.Microsecond}, {3, 0, 7500 * time.Microsecond}, {2, 4, 45 * time.Millisecond}} {
		if got := cfg.Due(c.p, c.i); got != c.want {
			t.Errorf("Due(%d, %d) = %v, want %v", c.p, c.i, got, c.want)
		}
	}
	// the global sequence follows due-time order
	for p := range cfg.Producers {
		for i := range cfg.Messages {
			n := cfg.GlobalSeq(p, i)
			if got := cfg.Due(int(n%4), int(n/4)); got != cfg.Due(p, i) {
				t.Errorf("sequence %d is not in due-time order", n)
			}
		}
	}
	if cfg.Span() != 47500*time.Microsecond {
		t.Errorf("Span = %v", cfg.Span())
	}
}

func TestIntervalForRate(t *testing.T) {
	d, err := IntervalForRate(600, 6)
	if err != nil || d != 10*time.Millisecond {
		t.Errorf("600/s over 6 producers: %v %v, want 10ms", d, err)
	}
	for _, r := range []float64{0, -1, 2e7, math.NaN()} {
		if _, err := IntervalForRate(r, 2); err == nil {
			t.Errorf("rate %v accepted", r)
		}
	}
}

func TestCheckNamesTheFlag(t *testing.T) {
	ok := Config{Addr: "127.0.0.1:6061", Producers: 2, Messages: 3, Size: 8192, Interval: time.Millisecond, RunID: "r"}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		change func(*Config)
		flag   string
	}{
		{func(c *Config) { c.Producers = 0 }, "--producers"},
		{func(c *Config) { c.Messages = 0 }, "--messages"},
		{func(c *Config) { c.Interval = 0 }, "--interval"},
		{func(c *Config) { c.Size = 100 }, "--size"},
		{func(c *Config) { c.Size = 1<<20 + 1 }, "--size"},
		{func(c *Config) { c.Addr = "" }, "--addr"},
		{func(c *Config) { c.Addr = "collector" }, "--addr"},
	} {
		cfg := ok
		c.change(&cfg)
		if err := cfg.Check(); err == nil || !strings.HasPrefix(err.Error(), c.flag+":") {
			t.Errorf("%s: error %v", c.flag, err)
		}
	}
}
