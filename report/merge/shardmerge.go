package merge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/vesload/vesload/report/result"
)

// MergeOptions tune MergeShards.
type Options struct {
	// AllowPartial accepts a sharded run with shards missing; the merged
	// result is marked partial and says which.
	AllowPartial bool
	// WithoutDelivery merges the results of a run whose shards announce
	// a lone consumer (RunConfig.Consumer) without the consumer's result:
	// the merged result then has no delivery section.
	WithoutDelivery bool
}

// ShardError says why shard results cannot be merged into one run: they
// belong to different runs or scenarios, a shard appears twice, or
// shards are missing. Its message is one line naming the inputs.
type ShardError struct{ msg string }

func (e *ShardError) Error() string { return "merge: " + e.msg }

// ErrConsumerMissing is the error of MergeShards for shards that announce
// a lone delivery consumer whose result is not among the inputs: the
// results are sound but incomplete (the consumer may still be running),
// not mismatched.
var ErrConsumerMissing = errors.New("the consumer's result is missing")

func shardErrorf(format string, args ...any) error {
	return &ShardError{msg: fmt.Sprintf(format, args...)}
}

// noText wraps an error for errors.Is without adding to the message.
type noText struct{ err error }

func (n noText) Error() string { return "" }
func (n noText) Unwrap() error { return n.err }

// MergeShards merges results as Merge does, after checking that the
// shards of a sharded run belong together (docs/ARCHITECTURE.md, "Many
// generators"): one run id, one scenario digest, one shard count,
// distinct indices, and all of them present unless opts.AllowPartial.
// Results that are not shards are merged as independent generators,
// without these checks, but shards and non-shards do not mix. The merged
// result's Merged field says what it holds.
func Shards(rs []*result.Result, names []string, opts Options) (*result.Result, error) {
	label := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("result %d", i+1)
	}
	for i, r := range rs {
		if r == nil {
			return nil, fmt.Errorf("merge: %s is missing", label(i))
		}
	}
	rs, names, consumer, consumerName, err := splitConsumer(rs, names, label)
	if err != nil {
		return nil, err
	}
	if i := slices.IndexFunc(rs, func(r *result.Result) bool { return r.Config.Consumer }); i >= 0 && consumer == nil && !opts.WithoutDelivery {
		return nil, fmt.Errorf("merge: %s%s announces a delivery consumer (vesload consume) whose result is not among the inputs: add it (its log or file, once it ended), or give --without-delivery%w",
			label(i), rs[i].ShardName(), noText{ErrConsumerMissing})
	}
	info, err := checkShards(rs, label, opts)
	if err != nil {
		return nil, err
	}
	m, err := Results(rs, names)
	if err != nil {
		return nil, err
	}
	m.Merged = info
	if consumer != nil {
		if err := joinConsumer(m, consumer, consumerName); err != nil {
			return nil, err
		}
	}
	if info.Count > 0 {
		m.Config.Shape = shardsShape(rs[0].Config.Shape, info)
	}
	if info.Partial {
		m.Warnings = append(m.Warnings, fmt.Sprintf("partial run: shards %s of %d are missing; the figures hold %d of %d shards",
			joinInts(info.Missing), info.Count, len(info.Shards), info.Count))
	}
	for i, r := range rs {
		if r.Interrupted {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s%s was interrupted: the merged run is incomplete", label(i), r.ShardName()))
		}
		if r.AbortedBy != "" {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s%s was stopped early by --abort-on-fail: %s: the merged run is incomplete and fails",
				label(i), r.ShardName(), r.AbortedBy))
		}
	}
	return m, nil
}

// shardsShape describes the load of a sharded run: its shards split one
// schedule (each result records the whole schedule's shape and its own
// share of the rate), so the merged run is that schedule, not N
// generators each at its full rate: "2 shards of constant 100/s for 2s",
// or "shards 0, 3 of 4 of …" when some are missing.
func shardsShape(shape string, info *result.MergeInfo) string {
	if shape == "" {
		shape = "constant"
	}
	if info.Partial {
		return fmt.Sprintf("shards %s of %d of %s", joinInts(info.Shards), info.Count, shape)
	}
	return fmt.Sprintf("%d shards of %s", info.Count, shape)
}

// checkShards applies MergeShards' checks and describes the merge.
func checkShards(rs []*result.Result, label func(int) string, opts Options) (*result.MergeInfo, error) {
	info := &result.MergeInfo{Inputs: len(rs)}
	first := slices.IndexFunc(rs, (*result.Result).IsShard)
	if first < 0 {
		return info, sameRunTwice(rs, label)
	}
	if i := slices.IndexFunc(rs, func(r *result.Result) bool { return !r.IsShard() }); i >= 0 {
		return nil, shardErrorf("%s is shard %d/%d of run %s but %s is not a shard: merge the shards of one run together",
			label(first), rs[first].Shard.Index, rs[first].Shard.Count, runName(rs[first]), label(i))
	}
	if err := sameField(rs, label, "runs", "run", runName); err != nil {
		return nil, err
	}
	digest := func(r *result.Result) string { return r.Config.Digest }
	if err := sameField(rs, label, "scenarios", "scenario", digest); err != nil {
		return nil, err
	}
	labels := func(r *result.Result) string { return r.Config.LabelText() }
	if err := sameField(rs, label, "labels", "labelled", labels); err != nil {
		return nil, err
	}
	count := func(r *result.Result) string { return fmt.Sprintf("of %d", r.Shard.Count) }
	if err := sameField(rs, label, "shard counts", "a shard", count); err != nil {
		return nil, err
	}
	if err := StartsAgree(rs, label); err != nil {
		return nil, err
	}
	n := rs[0].Shard.Count
	info.Count = n
	by := make([]int, n) // input index +1 of each shard
	for i, r := range rs {
		sh := r.Shard
		if sh.Index < 0 || sh.Index >= n {
			return nil, shardErrorf("%s is shard %d/%d: the index is out of range", label(i), sh.Index, n)
		}
		if j := by[sh.Index] - 1; j >= 0 {
			return nil, shardErrorf("shard %d/%d of run %s appears twice: %s and %s", sh.Index, n, runName(r), label(j), label(i))
		}
		by[sh.Index] = i + 1
		info.Shards = append(info.Shards, sh.Index)
		info.StartOffsetMaxMs = math.Max(info.StartOffsetMaxMs, math.Abs(sh.StartOffsetMs))
	}
	slices.Sort(info.Shards)
	for k, j := range by {
		if j == 0 {
			info.Missing = append(info.Missing, k)
		}
	}
	if len(info.Missing) > 0 {
		if !opts.AllowPartial {
			return nil, shardErrorf("run %s is missing shard%s %s of %d (got %d; a shard that failed left no result): give every shard's result, or --allow-partial to merge the rest",
				runName(rs[0]), plural(len(info.Missing)), joinInts(info.Missing), n, len(rs))
		}
		info.Partial = true
	}
	return info, nil
}

// sameRunTwice refuses one ordinary run given twice: the same run id and
// start instant, or the same document. Merging it would double every
// count of one generator. (Shards of one run share a run id by design;
// a shard given twice is caught by its index.)
func sameRunTwice(rs []*result.Result, label func(int) string) error {
	docs := make([][]byte, len(rs))
	for i, r := range rs {
		// A result that does not encode is compared by run id alone.
		docs[i], _ = json.Marshal(r)
	}
	for j := 1; j < len(rs); j++ {
		for i := range j {
			a, b := rs[i], rs[j]
			switch {
			case a.Config.RunID != "" && a.Config.RunID == b.Config.RunID && !a.Started.IsZero() && a.Started.Equal(b.Started):
				return shardErrorf("%s and %s are the same run (run %s started %s): merge combines different generators; give each run once",
					label(i), label(j), a.Config.RunID, a.Started.UTC().Format(time.RFC3339Nano))
			case docs[i] != nil && bytes.Equal(docs[i], docs[j]):
				return shardErrorf("%s and %s are the same run (identical content): merge combines different generators; give each run once",
					label(i), label(j))
			}
		}
	}
	return nil
}

func runName(r *result.Result) string {
	if r.Config.RunID == "" {
		return "(no run id)"
	}
	return r.Config.RunID
}

// sameField checks that every input has the same value of a field and
// otherwise names which inputs have which, in one line.
func sameField(rs []*result.Result, label func(int) string, what, noun string, get func(*result.Result) string) error {
	var values []string
	groups := map[string][]string{}
	for i, r := range rs {
		v := get(r)
		if _, ok := groups[v]; !ok {
			values = append(values, v)
		}
		groups[v] = append(groups[v], label(i))
	}
	if len(values) == 1 {
		return nil
	}
	parts := make([]string, len(values))
	for i, v := range values {
		if v == "" {
			v = "(none recorded)"
		}
		parts[i] = fmt.Sprintf("%s %s %s", strings.Join(groups[values[i]], ", "), verb(len(groups[values[i]])), noun+" "+v)
	}
	return shardErrorf("different %s: %s", what, strings.Join(parts, "; "))
}

func verb(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// defaultStartTolerance is the tolerance of shards whose results do not
// record one (written before they did): --start-tolerance's default.
const defaultStartTolerance = time.Second

// StartsAgree refuses shards that did not start together: start instants
// further apart than the smallest start tolerance among them, as shards
// given each their own relative --start-at had. Their arrivals did not
// interleave, so their union is not the run's schedule.
func StartsAgree(rs []*result.Result, label func(int) string) error {
	lo, hi := -1, -1
	tol := time.Duration(0)
	for i, r := range rs {
		sh := r.Shard
		if sh == nil || sh.StartAt.IsZero() {
			continue
		}
		t := time.Duration(sh.StartToleranceMs * float64(time.Millisecond))
		if t <= 0 {
			t = defaultStartTolerance
		}
		if lo < 0 || t < tol {
			tol = t
		}
		if lo < 0 || sh.StartAt.Before(rs[lo].Shard.StartAt) {
			lo = i
		}
		if hi < 0 || sh.StartAt.After(rs[hi].Shard.StartAt) {
			hi = i
		}
	}
	if lo < 0 {
		return nil
	}
	if d := rs[hi].Shard.StartAt.Sub(rs[lo].Shard.StartAt); d > tol {
		return shardErrorf("%s started at %s and %s at %s, %v apart, more than the start tolerance of %v: the shards did not start together (give them one --start-at instant, or --rendezvous)",
			label(lo), rs[lo].Shard.StartAt.UTC().Format(time.RFC3339Nano), label(hi), rs[hi].Shard.StartAt.UTC().Format(time.RFC3339Nano), d, tol)
	}
	return nil
}
