package result

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseLabel reads one label as the command line gives it, "KEY=VALUE":
// the key is letters, digits, '_', '-' and '.', starting with a letter,
// as profile keys are; the value is any printable text without line
// breaks, possibly empty. Labels are what a history is ordered and named
// by, so a malformed one is refused rather than kept.
func ParseLabel(s string) (key, value string, err error) {
	key, value, ok := strings.Cut(s, "=")
	if !ok {
		return "", "", fmt.Errorf("label %q: want KEY=VALUE, e.g. build=1.9.1", s)
	}
	if err := CheckLabel(key, value); err != nil {
		return "", "", err
	}
	return key, value, nil
}

// CheckLabel checks a label's key and value (see ParseLabel), for labels
// read from a profile as well.
func CheckLabel(key, value string) error {
	if key == "" {
		return fmt.Errorf("label %q: the key is empty", key+"="+value)
	}
	for i, r := range key {
		ok := r < utf8.RuneSelf && (unicode.IsLetter(r) || (i > 0 && (unicode.IsDigit(r) || strings.ContainsRune("_-.", r))))
		if !ok {
			return fmt.Errorf("label key %q: character %q at %d: want letters, digits, '_', '-' or '.', starting with a letter", key, r, i+1)
		}
	}
	if !utf8.ValidString(value) {
		return fmt.Errorf("label %s: the value is not UTF-8", key)
	}
	for _, r := range value {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("label %s: the value holds the unprintable %q", key, r)
		}
	}
	return nil
}

// LabelText lists the run's labels as "build=1.9.1, commit=abc123",
// sorted by key, for the renderings; empty without labels.
func (c RunConfig) LabelText() string {
	keys := slices.Sorted(maps.Keys(c.Labels))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + c.Labels[k]
	}
	return strings.Join(parts, ", ")
}
