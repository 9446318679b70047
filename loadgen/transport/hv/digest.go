package hv

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Digest identifies an HV-VES run's scenario: what every shard must
// agree on (not the shard itself, nor the clocks), so that merge refuses
// shards of different runs.
func (c Config) Digest() string {
	s := fmt.Sprintf("hv\x00%s\x00%d\x00%d\x00%d\x00%v\x00%s\x00%v", c.Addr, c.Producers, c.Messages, c.Size, c.Interval, c.Domain, c.TLS != nil)
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:12])
}
