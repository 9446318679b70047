package ves

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// maxRunIDLen bounds run IDs: they prefix every eventId.
const maxRunIDLen = 64

// resolveRunID returns id after checking it, or a fresh random ID when id
// is empty. IDs are limited to letters, digits and . _ : - so that they
// can be placed in JSON strings, file names and log lines without
// escaping.
func resolveRunID(id string) (string, error) {
	if id == "" {
		return NewRunID(), nil
	}
	if len(id) > maxRunIDLen {
		return "", fmt.Errorf("run ID %.20q… is longer than %d characters", id, maxRunIDLen)
	}
	for i := 0; i < len(id); i++ {
		if !runIDByte(id[i]) {
			return "", fmt.Errorf("run ID %q: character %q at %d is not a letter, digit, '.', '_', ':' or '-'", id, id[i], i+1)
		}
	}
	return id, nil
}

func runIDByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c == '.' || c == '_' || c == ':' || c == '-'
}

// NewRunID returns 16 random hex digits. eventIds must stay unique across
// every run a site will ever make, and 64 bits keep a clash negligible for
// billions of runs (32 bits clash by the birthday bound after some 77,000).
func NewRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error
	return hex.EncodeToString(b[:])
}

// CheckRunID reports whether id may serve as a run ID (an empty id may
// not: it stands for a fresh random one). Shards of one run are given the
// same ID, so that their eventIds share one prefix.
func CheckRunID(id string) error {
	if id == "" {
		return fmt.Errorf("run ID is empty")
	}
	_, err := resolveRunID(id)
	return err
}
