package merge

import (
	"fmt"
	"strings"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/verdict"
)

// FailedGates lists the gates that failed, as "ok>0 (0), p99<500ms
// (812 ms)": the one line that says why a merged run failed.
func FailedGates(ts []result.Threshold) string {
	var out []string
	for _, t := range ts {
		switch {
		case t.Pass:
			continue
		case t.Reason != "":
			out = append(out, fmt.Sprintf("%s (%s)", t.Expr, t.Reason))
		default:
			out = append(out, strings.TrimSpace(fmt.Sprintf("%s (%g %s", t.Expr, t.Value, t.Unit))+")")
		}
	}
	return strings.Join(out, ", ")
}

// JudgeMerge judges a merged result as one run is judged: by gates (the
// merge's own, added to the shards') and by the built-in rules the
// shards deferred (allowErrors lets a run without a success pass). It
// returns the verdict and the lines that explain it, in order: a partial
// merge, shards interrupted or stopped early (rs, named by names), rules
// broken and the gates that failed. A merge and a `vesload merge` of pod
// logs thus explain themselves alike.
func Judge(merged *result.Result, rs []*result.Result, names, gates []string, allowErrors bool) (verdict.Verdict, []string) {
	merged.Config.Thresholds = append(merged.Config.Thresholds, gates...)
	merged.Config.AllowErrors = merged.Config.AllowErrors || allowErrors
	judge, err := verdict.FromConfig(merged.Config)
	if err != nil {
		merged.Warnings = append(merged.Warnings, fmt.Sprintf("thresholds not evaluated on the merged result: %v", err))
		judge = verdict.Options{AllowErrors: merged.Config.AllowErrors}
	}
	broken := verdict.Judge(merged, judge)
	var lines []string
	if m := merged.Merged; m != nil && m.Partial {
		lines = append(lines, fmt.Sprintf("partial run: shards %v of %d are missing (--allow-partial)", m.Missing, m.Count))
	}
	v := verdict.Of(merged)
	for i, r := range rs {
		// A shard that stopped early fails the whole run: its share of
		// the schedule was not sent.
		if v == verdict.Interrupted && r.Interrupted {
			lines = append(lines, names[i]+" was interrupted: the merged run is incomplete")
		}
	}
	for i, r := range rs {
		if r.AbortedBy != "" {
			lines = append(lines, fmt.Sprintf("%s was stopped early by --abort-on-fail: %s", names[i], r.AbortedBy))
		}
	}
	lines = append(lines, broken...)
	if v == verdict.Failed {
		lines = append(lines, "failed on the merged result: "+FailedGates(merged.Thresholds))
	}
	return v, lines
}
