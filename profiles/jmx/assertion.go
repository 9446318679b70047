package jmx

import (
	"slices"
	"strconv"
	"strings"

	"github.com/vesload/vesload/internal/expect"
)

// JMeter's Response Assertion test types (Assertion.test_type bits).
const (
	assertContains  = 1
	assertMatches   = 2
	assertNot       = 4
	assertEquals    = 8
	assertSubstring = 16
	assertOr        = 32
)

// statusClassPattern matches the regular expressions plans write for a
// status class: 2\d\d, 2.., 2[0-9][0-9], 2\d{2}, 2[0-9]{2}.
var statusClassPattern = lazyRegexp(`^([1-5])(?:\\d\\d|\.\.|\[0-9\]\[0-9\]|\\d\{2\}|\[0-9\]\{2\})$`)

// responseAssertion translates a Response Assertion on the response code
// into target.expect_status and reports whether it did; any other
// assertion is left to warnElement. The run takes one set of expected
// statuses, so a second assertion that differs is reported.
func (imp *importer) responseAssertion(el *element) bool {
	if strings.TrimSpace(el.str("Assertion.test_field")) != "Assertion.response_code" {
		return false
	}
	typ, _ := strconv.Atoi(strings.TrimSpace(el.str("Assertion.test_type")))
	var items []string
	for _, s := range el.n.items("Asserion.test_strings") { // sic: JMeter's spelling
		if v := strings.TrimSpace(s.text.String()); v != "" {
			items = append(items, v)
		}
	}
	switch {
	case typ&assertNot != 0:
		imp.warn(el, "a NOT assertion on the response code is not translated: give the statuses that count as success with --expect-status")
		return true
	case len(items) == 0:
		return false
	case len(items) > 1 && typ&assertOr == 0 && !allSame(items):
		imp.warn(el, "the response code must equal all of %s at once, which no response can: not translated", strings.Join(items, ", "))
		return true
	}
	var statuses []string
	for _, it := range items {
		st, ok := statusItem(it, typ)
		if !ok {
			imp.warn(el, "response code pattern %q not translated: vesload expects codes such as 202 or classes such as 2xx (--expect-status)", it)
			return true
		}
		if !slices.Contains(statuses, st) {
			statuses = append(statuses, st)
		}
	}
	if _, err := expect.Parse(statuses); err != nil {
		imp.warn(el, "response code %v not translated: %v", statuses, err)
		return true
	}
	switch {
	case imp.expectStatus == nil:
		imp.expectStatus = statuses
		imp.warn(el, "response code assertion became target.expect_status %s: any other status counts as an error of its own class", strings.Join(statuses, ","))
	case !slices.Equal(imp.expectStatus, statuses):
		imp.warn(el, "a run takes one set of expected statuses: kept %s, not %s", strings.Join(imp.expectStatus, ","), strings.Join(statuses, ","))
	}
	return true
}

// statusItem turns one test string into a code or a class.
func statusItem(s string, typ int) (string, bool) {
	if len(s) == 3 {
		if c, err := strconv.Atoi(s); err == nil && c >= 100 && c <= 599 {
			return s, true
		}
	}
	if typ&(assertMatches|assertContains) != 0 {
		if m := statusClassPattern().FindStringSubmatch(s); m != nil {
			return m[1] + "xx", true
		}
	}
	return "", false
}

func allSame(items []string) bool {
	for _, it := range items[1:] {
		if it != items[0] {
			return false
		}
	}
	return true
}
