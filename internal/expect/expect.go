// Package expect holds the HTTP statuses a run counts as success: ONAP's
// plans assert 202, and a collector answering 200 instead (the legacy
// compatibility setting) must then count as an error of its own class.
// The set is written as codes and classes ("202", "2xx"), from the
// command line (--expect-status) or a profile (target.expect_status).
//
// It parses and matches; it never decides what an error is called.
package expect

import (
	"fmt"
	"strconv"
	"strings"
)

// Statuses is a set of HTTP status codes 100..599. The zero value is the
// default, every 2xx status.
type Statuses struct {
	bits [10]uint64 // bit c%64 of bits[c/64]: code c is expected
	text string     // as written, normalised ("202,2xx"); "" is the default
}

// Parse reads items such as "202", "2xx" or "200,202" (several items,
// or commas inside one, add up). No items means the default. An error
// names the item and says what is expected.
func Parse(items []string) (Statuses, error) {
	var s Statuses
	var parts []string
	for _, item := range items {
		for _, p := range strings.Split(item, ",") {
			p = strings.ToLower(strings.TrimSpace(p))
			if p == "" {
				return Statuses{}, fmt.Errorf("%q: empty status (want a code such as 202 or a class such as 2xx)", item)
			}
			lo, hi, err := span(p)
			if err != nil {
				return Statuses{}, err
			}
			for c := lo; c <= hi; c++ {
				s.bits[c/64] |= 1 << (c % 64)
			}
			parts = append(parts, p)
		}
	}
	s.text = strings.Join(parts, ",")
	return s, nil
}

// span turns one item into the codes it covers.
func span(p string) (lo, hi int, err error) {
	if len(p) == 3 && p[1:] == "xx" && p[0] >= '1' && p[0] <= '5' {
		lo = int(p[0]-'0') * 100
		return lo, lo + 99, nil
	}
	c, err := strconv.Atoi(p)
	if err != nil || len(p) != 3 || c < 100 || c > 599 {
		return 0, 0, fmt.Errorf("%q: want a status code 100..599 such as 202, or a class 1xx..5xx", p)
	}
	return c, c, nil
}

// OK reports whether status code is expected. It allocates nothing.
func (s *Statuses) OK(code int) bool {
	if s.text == "" {
		return code >= 200 && code <= 299
	}
	if code < 0 || code >= len(s.bits)*64 {
		return false
	}
	return s.bits[code/64]&(1<<(code%64)) != 0
}

// IsDefault reports whether the set is the default 2xx.
func (s Statuses) IsDefault() bool { return s.text == "" || s.text == "2xx" }

// String is the set as written, "2xx" for the default.
func (s Statuses) String() string {
	if s.text == "" {
		return "2xx"
	}
	return s.text
}
