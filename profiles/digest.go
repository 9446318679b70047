package profiles

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Digest identifies a resolved scenario: the shards of one run load the
// same profile and flags, so their digests agree, and merge refuses
// results whose digests differ. Where the profile was read from is not
// part of it.
func (p *Profile) Digest() (string, error) {
	c := *p
	c.Source = ""
	b, err := c.Marshal()
	if err != nil {
		return "", fmt.Errorf("digest of the scenario: %w", err)
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:12]), nil
}
