package metric

import (
	"strings"

	"github.com/vesload/vesload/report/result"
)

// Kind is what a metric measures: it decides the units a gate may write
// its value in and how a rendering shows it.
type Kind int

// The kinds of metric.
const (
	// Count is a number of requests, messages or events; it takes no unit.
	Count Kind = iota
	// Rate is a number per second (requests per second): "/s" or none.
	Rate
	// Latency is a time in milliseconds; a gate must give its unit.
	Latency
	// Bytes is a size in bytes (B, KB, MiB, …).
	Bytes
	// Percent is a percentage such as CPU; "%" is optional.
	Percent
	// Ratio is a share of the requests in percent (the error rate): "%"
	// is required, as a number alone reads as a fraction too.
	Ratio
	// Gauge is a figure with no unit a gate can convert (MB/s read as a
	// plain number): it takes no unit, like a count.
	Gauge
)

// Merge is how the figures of the shards of one run (or of independent
// generators) become the figure of the whole: documented per metric so
// that report/merge and a reader of a merged result agree.
type Merge int

// The ways a metric merges.
const (
	// Sum adds the shards' figures.
	Sum Merge = iota
	// Max keeps the largest: a peak, or a machine's worst.
	Max
	// Mean averages the shards' figures (one target sampled by each).
	Mean
	// Histogram is recomputed from the merged HDR histograms.
	Histogram
	// Derived is recomputed from merged counts, bytes and durations.
	Derived
	// Once is taken once per run: a receiver every shard observed alike.
	Once
)

// String names the way, for messages.
func (m Merge) String() string {
	switch m {
	case Sum:
		return "sum"
	case Max:
		return "max"
	case Mean:
		return "mean"
	case Histogram:
		return "histogram"
	case Derived:
		return "derived"
	case Once:
		return "once"
	}
	return "unknown"
}

// Direction is which way a change of a metric is a regression: what a
// compare gate, a comparison's table and a history's change points judge
// by.
type Direction int

// The directions.
const (
	// WorseUp: a rise is the regression (latency, errors, CPU).
	WorseUp Direction = iota
	// WorseDown: a drop is the regression (what was done: rps, ok).
	WorseDown
)

// PerSecond is how a metric is read off one second of the timeline: a
// single run is gated against a baseline on its seconds.
type PerSecond struct {
	// Label names the per-second figure for a reader.
	Label string
	// Of returns the second's figure and whether the second measured it.
	Of func(s result.Second) (float64, bool)
	// Carried says why a result's timeline does not carry the figure
	// ("target was not sampled …"), or "" when it does; nil means always.
	Carried func(r *result.Result) string
	// Added marks a figure the timeline gained in a later release: an
	// older result's seconds read it as 0 although they answered.
	Added bool
}

// Metric is one declaration: everything the gates, comparisons, trends
// and verdicts need to know of a figure, kept beside the protocol that
// measures it.
type Metric struct {
	// Name is the canonical name gates and histories use (p999, hv.lost).
	Name string
	// Aliases are the other spellings a gate accepts (p(99.9), p99.9).
	Aliases []string
	// Family is the Prefix of the Family the metric belongs to, if any.
	Family string
	// Kind and Unit: what it measures and the unit values are read and
	// judged in (ms, %, B, /s, or none).
	Kind Kind
	Unit string
	// Merge is how shards merge it.
	Merge Merge
	// Worse is the direction of a regression.
	Worse Direction
	// Read returns the figure in Unit, or why the result lacks it, in
	// words a gate's outcome shows ("not an HV-VES run").
	Read func(r *result.Result) (value float64, missing string)
	// Doc says in one line what the figure is.
	Doc string
	// Sampled marks a figure the run's samplers and ticker read (the
	// target's and vesload's resources, the dispatch lag), not its
	// requests: a part of a run judged on its requests alone (a capacity
	// step's window) has none of it.
	Sampled bool

	// CompareOnly marks a figure of the table of differences that no
	// gate may name (it has no name in the grammar).
	CompareOnly bool
	// Row is the metric's place in vesload compare's table of
	// differences, from 1; 0 leaves it out of the table.
	Row int
	// Field names the row in a comparison's documents: the figure's path
	// in the result document (latency_ms.p99).
	Field string
	// Label is the row's human name with its unit.
	Label string
	// Lacks is why a run may lack the row, said after the run's name
	// ("recorded no latency").
	Lacks string
	// Trend is the metric's place among a history's default series, from
	// 1; 0 leaves it out unless asked for.
	Trend int
	// Second is how the timeline carries it per second; nil when it does
	// not.
	Second *PerSecond
}

// Family is a group of metrics under one prefix (hv., errors.,
// service_), so that a misspelt member is told apart from an unknown
// metric and the list of its members names them all.
type Family struct {
	// Prefix starts every member's name; empty for the bare latency
	// statistics, which a caller recognises by their shape.
	Prefix string
	// Spelling is how a list of all metrics names the family in one
	// word (service_*, errors.<class>); empty lists every member.
	Spelling string
	// Noun is what a member is called in "unknown <noun>".
	Noun string
	// Want lists what may follow the prefix, for a message.
	Want string
}

// All returns every declaration, in the order lists of metrics show
// them: the engine's own (REST), HV-VES's, delivery's. A new slice each
// call: the registry cannot be changed by a reader.
func All() []Metric {
	var all []Metric
	all = append(all, rest()...)
	all = append(all, hv()...)
	return append(all, delivery()...)
}

// Families returns the families of All, in the order a name is tried
// against their prefixes.
func Families() []Family {
	return []Family{
		hvFamily(),
		errorFamily(),
		statFamily(servicePrefix, "service_*"),
		dispatchLagFamily(),
		statFamily(e2ePrefix, "e2e_*"),
		deliveryFamily(),
		statFamily("", ""),
	}
}

// Lookup finds a gateable metric by its name or an alias (lower case),
// including the error classes that are a pattern (errors.http_503,
// errors.http_5xx).
func Lookup(name string) (Metric, bool) {
	for _, m := range All() {
		if m.CompareOnly {
			continue
		}
		if m.Name == name {
			return m, true
		}
		for _, a := range m.Aliases {
			if a == name {
				return m, true
			}
		}
	}
	return statusClass(name)
}

// Names lists the canonical names of every gateable metric, in order:
// the words "did you mean" chooses among.
func Names() []string {
	var names []string
	for _, m := range All() {
		if !m.CompareOnly {
			names = append(names, m.Name)
		}
	}
	return names
}

// List names every gateable metric for a message, a family in one word
// where it has one: "avg, min, …, service_*, …, delivery.<count>, e2e_*".
func List() string {
	spelling := map[string]string{}
	for _, f := range Families() {
		spelling[f.Prefix] = f.Spelling
	}
	var words []string
	said := map[string]bool{}
	for _, m := range All() {
		if m.CompareOnly {
			continue
		}
		w := spelling[m.Family]
		if w == "" {
			w = m.Name
		}
		if !said[w] {
			said[w] = true
			words = append(words, w)
		}
	}
	return strings.Join(words, ", ")
}

// Compared returns the rows of a comparison's table of differences, in
// their order.
func Compared() []Metric {
	return ranked(func(m Metric) int { return m.Row })
}

// TrendDefaults returns the metrics a history shows when none is asked
// for, in order.
func TrendDefaults() []Metric {
	return ranked(func(m Metric) int { return m.Trend })
}

// ranked keeps the metrics whose rank is above 0, ordered by it.
func ranked(rank func(Metric) int) []Metric {
	var out []Metric
	for _, m := range All() {
		if rank(m) > 0 {
			out = append(out, m)
		}
	}
	for i := 1; i < len(out); i++ { // insertion sort: a handful of rows
		for j := i; j > 0 && rank(out[j]) < rank(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// members lists the part after prefix of every member of a family, in
// order.
func members(ms []Metric, prefix string, full bool) string {
	var names []string
	for _, m := range ms {
		if m.Family == prefix && !m.CompareOnly {
			if full {
				names = append(names, m.Name)
			} else {
				names = append(names, strings.TrimPrefix(m.Name, prefix))
			}
		}
	}
	return strings.Join(names, ", ")
}
