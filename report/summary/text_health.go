package summary

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/vesload/vesload/internal/redact"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/table"
)

// textGenerator prints vesload's own health. When the generator could not
// keep the schedule, the latency it measured includes its own delay, so a
// saturated run gets a warning nobody can overlook.
func textGenerator(t *textWriter, r *result.Result) {
	g := r.Generator
	t.section("Generator (vesload itself)")
	tb := table.Table{Cols: []table.Column{table.Left(""), table.Left("")}}
	tb.Add("dispatch lag", fmt.Sprintf("p50 %s ms, p99 %s ms, max %s ms",
		format.Ms(g.DispatchLagP50Ms), format.Ms(g.DispatchLagP99Ms), format.Ms(g.DispatchLagMaxMs)))
	tb.Add("CPU", fmt.Sprintf("avg %s%%, max %s%%", format.CPU(g.CPUAvgPct), format.CPU(g.CPUMaxPct)))
	if g.RSSMaxBytes > 0 {
		tb.Add("RSS max", format.Bytes(g.RSSMaxBytes))
	}
	if g.RSSAnonMaxBytes > 0 {
		tb.Add("anonymous RSS max", format.Bytes(g.RSSAnonMaxBytes))
	}
	if g.GoHeapMaxBytes > 0 {
		tb.Add("Go heap in use max", format.Bytes(g.GoHeapMaxBytes))
	}
	if g.MaxInFlight > 0 {
		tb.Add("max in flight", format.Int(g.MaxInFlight))
	}
	t.Lines(tb.Plain("  "))
	if g.Saturated {
		t.warn("  ", fmt.Sprintf("the generator was saturated (dispatch lag p99 %s ms, CPU max %s%%): "+
			"it could not keep the schedule, so the latency figures include its own delay and are suspect. "+
			"Lower the rate, give vesload more CPU, or split the load across machines.",
			format.Ms(g.DispatchLagP99Ms), format.CPU(g.CPUMaxPct)))
	}
}

// textTarget prints what was sampled of the system under test.
func textTarget(t *textWriter, r *result.Result) {
	tg := r.Target
	if tg == nil {
		t.section("Target: not sampled")
		return
	}
	title := "Target"
	if tg.Source != "" {
		title += " (" + redact.URL(tg.Source) + ")"
	}
	t.section(title)
	tb := table.Table{Cols: []table.Column{table.Left(""), table.Left("")}}
	tb.Add("CPU", fmt.Sprintf("avg %s%%, max %s%%", format.CPU(tg.CPUAvgPct), format.CPU(tg.CPUMaxPct)))
	rss := na
	if tg.RSSMaxBytes > 0 {
		rss = format.Bytes(tg.RSSMaxBytes)
	}
	tb.Add("RSS max", rss)
	if len(tg.Series) > 0 {
		tb.Add("series", strings.Join(tg.Series, ", "))
	}
	if tg.SampleErrors > 0 {
		msg := format.Int(tg.SampleErrors) + " samples failed"
		if tg.LastError != "" {
			msg += " (last: " + strings.Join(strings.Fields(tg.LastError), " ") + ")"
		}
		tb.Add("sample errors", msg)
	}
	t.Lines(tb.Plain("  "))
	if len(tg.Extra) > 0 {
		ex := table.Table{Cols: []table.Column{table.Left("extra series"), table.Right("avg"), table.Right("max"), table.Right("samples")}}
		for _, name := range slices.Sorted(maps.Keys(tg.Extra)) {
			s := tg.Extra[name]
			ex.Add(name, fmtNum4(s.Avg), fmtNum4(s.Max), strconv.Itoa(s.Samples))
		}
		t.Lines(ex.Plain("  "))
	}
	if tg.Exited {
		t.warn("  ", "the target process exited during the run; later samples are missing.")
	}
}

// fmtNum4 formats a series value of unknown scale with four significant
// digits.
func fmtNum4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
