package hv

import (
	"testing"
	"time"
)

// TestDigest: the shards of one HV-VES run agree on the digest whatever
// their shard; a run that sends otherwise does not.
func TestDigest(t *testing.T) {
	t.Parallel()
	base := Config{Addr: "h:6061", Producers: 4, Messages: 10, Size: 100, Interval: time.Second, Domain: "perf3gpp"}
	shard := base
	shard.RunID = "other id, same scenario"
	tests := []struct {
		name string
		c    Config
		same bool
	}{
		{"another shard's view", shard, true},
		{"more producers", Config{Addr: "h:6061", Producers: 5, Messages: 10, Size: 100, Interval: time.Second, Domain: "perf3gpp"}, false},
		{"another interval", Config{Addr: "h:6061", Producers: 4, Messages: 10, Size: 100, Interval: 2 * time.Second, Domain: "perf3gpp"}, false},
		{"another domain", Config{Addr: "h:6061", Producers: 4, Messages: 10, Size: 100, Interval: time.Second, Domain: "measurement"}, false},
	}
	for _, tt := range tests {
		if got := tt.c.Digest() == base.Digest(); got != tt.same {
			t.Errorf("%s: same digest %v, want %v", tt.name, got, tt.same)
		}
	}
}
