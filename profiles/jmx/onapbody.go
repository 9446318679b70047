package jmx

import (
	"fmt"
	"slices"
	"strings"
)

// ONAP's JMeter plans send one constant event: the same eventId in every
// request and JMeter's ${__time()}, which is epoch milliseconds, in the
// microsecond timestamps. The collector takes both, but a load test that
// sends them cannot count duplicates or prove delivery by eventId, and the
// timestamps are a thousand times too small. The import replaces them by
// what vesload sends in its own events, and says so.

var (
	// constEventID matches "eventId": "literal" (no template expression).
	constEventID = lazyRegexp(`("eventId"\s*:\s*)"([^"\\${}]*)"`)
	// millisInMicros matches ${__time()} as the value of a microsecond
	// timestamp; a match followed by a digit (${__time()}000) already is
	// microseconds and is left alone.
	millisInMicros = lazyRegexp(`("(?:start|last)EpochMicrosec"\s*:\s*)\$\{__time\(\)\}`)
)

// uniqueEvents rewrites a translated JSON body: constant eventIds become
// {{.EventID}} (with a -2, -3, … suffix for the second and later events
// of a batch) and millisecond timestamps {{.EpochMicros}}. It returns the
// new body and one note per kind of change, for the import's warnings.
func uniqueEvents(body string) (string, []string) {
	var notes []string
	n := 0
	var first string
	re := constEventID()
	out := re.ReplaceAllStringFunc(body, func(m string) string {
		sub := re.FindStringSubmatch(m)
		n++
		if n == 1 {
			first = sub[2]
			return sub[1] + `"{{.EventID}}"`
		}
		return sub[1] + fmt.Sprintf(`"{{.EventID}}-%d"`, n)
	})
	if n > 0 {
		notes = append(notes, fmt.Sprintf("eventId %q is the same in every request: vesload sends {{.EventID}} instead "+
			"(run id and request number, unique in every run), so that duplicates and delivery can be counted", first))
	}
	var fields []string
	var b strings.Builder
	last := 0
	for _, loc := range millisInMicros().FindAllStringSubmatchIndex(out, -1) {
		end := loc[1]
		if end < len(out) && out[end] >= '0' && out[end] <= '9' {
			continue // ${__time()}000: already microseconds
		}
		b.WriteString(out[last:loc[3]])
		b.WriteString("{{.EpochMicros}}")
		last = end
		field := strings.TrimSpace(strings.SplitN(out[loc[2]:loc[3]], ":", 2)[0])
		if !slices.Contains(fields, field) {
			fields = append(fields, field)
		}
	}
	if last > 0 {
		b.WriteString(out[last:])
		out = b.String()
		notes = append(notes, fmt.Sprintf("%s: ${__time()} is epoch milliseconds in a microsecond field: "+
			"vesload sends {{.EpochMicros}} instead (the request's due time in microseconds)", strings.Join(fields, " and ")))
	}
	return out, notes
}
