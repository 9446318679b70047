package threshold

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vesload/vesload/internal/suggest"
	"github.com/vesload/vesload/report/result/metric"
)

// canonicalUnit is the unit String writes, chosen so that the value is
// written exactly as stored (no conversion on re-parsing): a rate's "/s"
// is left out.
func canonicalUnit(m metric.Metric) string {
	if m.Kind == metric.Rate {
		return ""
	}
	return m.Unit
}

// nameError is a metric name that did not resolve; offset is where in the
// name (in characters) the mistake starts.
type nameError struct {
	offset int
	msg    string
}

// resolve maps any accepted spelling of a metric name (lower case) to its
// declaration in the registry; a name that is not one is refused in the
// words of the family its prefix names, or with the nearest name.
func resolve(name string) (metric.Metric, *nameError) {
	if utf8.RuneCountInString(name) > clipRunes { // longer than any metric's name
		return metric.Metric{}, &nameError{0, fmt.Sprintf("unknown metric %q", Clip(name))}
	}
	if m, ok := metric.Lookup(name); ok {
		return m, nil
	}
	for _, f := range metric.Families() {
		rest, ok := strings.CutPrefix(name, f.Prefix)
		if !ok || (f.Prefix == "" && !isStat(name)) {
			continue
		}
		return metric.Metric{}, &nameError{len(f.Prefix), fmt.Sprintf("unknown %s %q (want %s)", f.Noun, rest, f.Want)}
	}
	if s := suggest.Nearest(name, metric.Names()); s != "" {
		return metric.Metric{}, &nameError{0, fmt.Sprintf("unknown metric %q: did you mean %s?", name, s)}
	}
	return metric.Metric{}, &nameError{0, fmt.Sprintf("unknown metric %q (want %s)", name, metric.List())}
}

// isStat tells whether s, which is no metric, looks like a percentile
// (p98, p(99.99)…), so that an unsupported one gets a precise message.
func isStat(s string) bool {
	return strings.HasPrefix(s, "p") && len(s) > 1 && strings.ContainsAny(s[1:2], "(0123456789")
}
