package trend

import "strings"

// NaturalLess orders build names as people read versions: digit runs by
// their numeric value (1.9.1 before 1.10.0, build-9 before build-10),
// everything else byte by byte; a name that is a prefix of another comes
// first (1.0 before 1.0-rc1, which a reader of semantic versions may
// expect the other way round: give such builds a sortable label).
func NaturalLess(a, b string) bool { return NaturalCompare(a, b) < 0 }

// NaturalCompare is the three-way form of NaturalLess: names that differ
// only in leading zeros (1.02 and 1.2) are ordered by their text, so that
// the order is total.
func NaturalCompare(a, b string) int {
	ra, rb := a, b
	for ra != "" && rb != "" {
		da, db := isDigit(ra[0]), isDigit(rb[0])
		if da != db {
			if da {
				return -1 // digits before other text
			}
			return 1
		}
		var ca, cb string
		if da {
			ca, ra = digits(ra)
			cb, rb = digits(rb)
			if c := compareNumbers(ca, cb); c != 0 {
				return c
			}
			continue
		}
		ca, ra = text(ra)
		cb, rb = text(rb)
		if c := strings.Compare(ca, cb); c != 0 {
			return c
		}
	}
	switch {
	case ra == "" && rb != "":
		return -1
	case ra != "" && rb == "":
		return 1
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits splits s after its leading run of digits.
func digits(s string) (string, string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// text splits s before its first digit.
func text(s string) (string, string) {
	i := 0
	for i < len(s) && !isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// compareNumbers compares two runs of digits by value, however long.
func compareNumbers(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}
