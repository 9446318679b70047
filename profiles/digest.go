package profiles

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Digest identifies a resolved scenario: the shards of one run load the
// same profile and flags, so their digests agree, and merge refuses
// results whose digests differ. Where the profile was read from is not
// part of it. It hashes the quoted YAML form, which is as deterministic as
// the one Marshal prefers and needs no read-back check: parsing the
// rendering again cost every run's start-up more than its first second of
// requests at 100/s.
func (p *Profile) Digest() (string, error) {
	c := *p
	c.Source = ""
	b, err := c.marshal(false)
	if err != nil {
		return "", fmt.Errorf("digest of the scenario: %w", err)
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:12]), nil
}
