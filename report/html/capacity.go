package html

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/summary"
)

// KneeFactor is the knee's rule: the knee of a capacity curve is the
// lowest offered rate from which on p99 stays above KneeFactor times the
// p99 of the lowest rate tried, where latency has left its unloaded level
// for good (a single slow step below it is noise, not the knee).
const KneeFactor = 2

// Capacity writes a capacity search as one self-contained HTML page: what
// it found (the highest rate that held the SLOs, the lowest that broke
// one and the gate it broke, who limited it, the precision reached), the
// curve (p50 and p99 against the offered and the achieved rate, the error
// rate, the rate achieved and the target's CPU when sampled, against the
// offered rate, with the highest pass, the lowest fail and the knee
// marked) and a table of every step. A rate run more than once (the
// confirmation of the boundary) is drawn at its last run; the table
// shows every run.
func Capacity(w io.Writer, d *result.CapacityDocument) error {
	if d == nil {
		return errors.New("html capacity: no document")
	}
	c := &d.Capacity
	url := redact.URL(d.Config.URL)
	p := &page{
		Title:   "vesload capacity: " + url,
		Heading: "Capacity: " + capacityHeadline(c),
		Meta: []string{"Target: " + url, "SLOs: " + strings.Join(d.Config.SLOs, ", "),
			fmt.Sprintf("Steps of %s s after a %s s warm-up, from %s/s up to %s/s; precision asked %s %%, budget %s s.",
				format.Num(d.Config.StepS), format.Num(d.Config.WarmupS), format.Num(d.Config.StartRPS), format.Num(d.Config.MaxRPS),
				format.Num(c.AskedPrecisionPct), format.Num(c.BudgetS))},
		Banner: c.Undecided,
		Footer: fmt.Sprintf("Written by vesload %s from a capacity search of %d steps.", d.Tool.Version, len(c.Steps)),
	}
	if hv := summary.HVShape(d.Config); hv != "" {
		p.Meta = append(p.Meta, hv+".")
	}
	if !d.Started.IsZero() {
		p.Meta = append(p.Meta, "Started "+fmtTime(d.Started)+", ended "+fmtTime(d.Ended)+".")
	}
	for _, warn := range d.Warnings {
		p.Warnings = append(p.Warnings, redact.URL(warn))
	}
	knee, kneeOK := capacityKnee(c.Steps)
	p.Sections = []section{capacityResult(c, knee, kneeOK), capacityCurve(c, knee, kneeOK), capacitySteps(c)}
	return render(w, p)
}

// capacityHeadline is the capacity in a few words.
func capacityHeadline(c *result.Capacity) string {
	switch {
	case c.MaxRPS > 0 && c.FailRPS > 0:
		return summary.CapacityRate(c.MaxRPS, c.MaxProducers)
	case c.MaxRPS > 0:
		return "at least " + summary.CapacityRate(c.MaxRPS, c.MaxProducers)
	}
	return "no rate held the SLOs"
}

// capacityResult is the result's section: the figures of the boundary,
// who limited it, the advice and the knee.
func capacityResult(c *result.Capacity, knee float64, kneeOK bool) section {
	s := section{ID: "result", Title: "Result"}
	s.Badge = &badge{Text: "FOUND", Class: "pass"}
	if c.Undecided != "" || !c.Confirmed {
		s.Badge = &badge{Text: "UNDECIDED", Class: "fail"}
	}
	rate := func(v float64, producers int) string {
		if v <= 0 {
			return format.NA
		}
		return summary.CapacityRate(v, producers)
	}
	confirmed := "no"
	if c.Confirmed {
		confirmed = "yes: both rates kept their verdicts when run again"
	}
	kneeText := fmt.Sprintf("none: p99 stayed within %d× its value at the lowest rate", KneeFactor)
	if kneeOK {
		kneeText = fmt.Sprintf("%s/s: the lowest rate from which on p99 stays above %d× its value at the lowest rate", format.Num(knee), KneeFactor)
	}
	t := table{Rows: [][]cell{
		{key("highest rate that held the SLOs"), {Text: rate(c.MaxRPS, c.MaxProducers), Class: "num pass"}},
		{key("lowest rate that broke one"), {Text: rate(c.FailRPS, c.FailProducers), Class: "num fail"}},
		{key("broken by"), txt(orNA(c.BrokenBy))},
		{key("limited by"), txt(orNA(c.LimitedBy))},
		{key("precision"), txt(format.Num(c.PrecisionPct) + " % apart (asked " + format.Num(c.AskedPrecisionPct) + " %)")},
		{key("confirmed"), txt(confirmed)},
		{key("knee"), txt(kneeText)},
		{key("steps"), txt(fmt.Sprintf("%d in %s s of a %s s budget", len(c.Steps), format.Num(c.SpentS), format.Num(c.BudgetS)))},
	}}
	s.Tables = []table{t}
	if c.Advice != "" {
		s.Paras = []string{c.Advice}
	}
	return s
}

func orNA(s string) string {
	if s == "" {
		return format.NA
	}
	return s
}

// capacityKnee finds the knee of the curve by KneeFactor's rule, each
// rate at its last run; steps without requests or without a p99 do not
// count. It reports false when p99 is back at its unloaded level at the
// highest rate tried.
func capacityKnee(steps []result.CapacityStep) (float64, bool) {
	last := map[float64]float64{}
	var rates []float64
	for _, s := range steps {
		if s.Requests <= 0 || !(s.P99Ms > 0) {
			continue
		}
		if _, ok := last[s.OfferedRPS]; !ok {
			rates = append(rates, s.OfferedRPS)
		}
		last[s.OfferedRPS] = s.P99Ms
	}
	if len(rates) < 2 {
		return 0, false
	}
	lowest := slices.Min(rates)
	slices.Sort(rates)
	knee, found := 0.0, false
	for _, r := range rates {
		switch {
		case last[r] <= KneeFactor*last[lowest]:
			found = false // back at its unloaded level: what came before was noise
		case !found:
			knee, found = r, true
		}
	}
	if !found {
		return 0, false
	}
	return knee, true
}

// capacityMarks are the marks across a chart of the curve: the highest
// pass, the lowest fail and the knee, at x(step) of the step each falls
// on (its offered or achieved rate).
func capacityMarks(c *result.Capacity, knee float64, kneeOK bool, x func(result.CapacityStep) float64) []chartMark {
	at := func(rate float64) (float64, bool) {
		v, ok := 0.0, false
		for _, s := range c.Steps {
			if s.OfferedRPS == rate {
				v, ok = x(s), true
			}
		}
		return v, ok
	}
	var marks []chartMark
	add := func(rate float64, label string, col string) {
		if rate <= 0 {
			return
		}
		if v, ok := at(rate); ok {
			marks = append(marks, chartMark{X: v, Label: label + " " + format.Num(rate) + "/s", Color: col})
		}
	}
	add(c.MaxRPS, "highest pass", hexColor(colGreen))
	add(c.FailRPS, "lowest fail", hexColor(colVermilion))
	if kneeOK {
		add(knee, "knee", hexColor(colGrey))
	}
	return marks
}

// capacityCurve is the curve's section: one chart per figure against the
// offered rate, and latency against the achieved rate.
func capacityCurve(c *result.Capacity, knee float64, kneeOK bool) section {
	offered := func(s result.CapacityStep) float64 { return s.OfferedRPS }
	achieved := func(s result.CapacityStep) float64 { return s.AchievedRPS }
	line := func(name string, col series, x, y func(result.CapacityStep) float64, has func(result.CapacityStep) bool) series {
		col.name, col.dots = name, true
		for _, s := range c.Steps {
			if has != nil && !has(s) {
				continue
			}
			col.xy = append(col.xy, point{x(s), y(s)})
		}
		return col
	}
	p50 := func(s result.CapacityStep) float64 { return s.P50Ms }
	p99 := func(s result.CapacityStep) float64 { return s.P99Ms }
	// The travel time into Kafka of the steps that followed their events
	// (HV-VES): a receiver that queues is seen there first.
	followed := result.CapacityStep.Followed
	e2e := func(s result.CapacityStep) float64 { return *s.E2EP99Ms }
	latency := func(x func(result.CapacityStep) float64) []series {
		ss := []series{line("p50", series{color: colBlue}, x, p50, nil), line("p99", series{color: colOrange}, x, p99, nil)}
		if result.AnyFollowed(c.Steps) {
			ss = append(ss, line("e2e p99", series{color: colPurple, dashed: true}, x, e2e, followed))
		}
		return ss
	}
	latencyCaption := "p50 and p99 of each step's measured seconds."
	if result.AnyFollowed(c.Steps) {
		latencyCaption = "p50 and p99 of each step's measured seconds, from each message's due time to its write; e2e p99 of the whole step's travel time into Kafka."
	}
	curve := func(title, caption, xLabel, yLabel string, x func(result.CapacityStep) float64, ss ...series) chart {
		return chart{title: title, caption: caption, xLabel: xLabel, yLabel: yLabel, rate: true,
			marks: capacityMarks(c, knee, kneeOK, x), series: ss}
	}
	diagonal := series{name: "offered", color: colGrey, dashed: true, thin: true}
	for _, s := range c.Steps {
		diagonal.xy = append(diagonal.xy, point{s.OfferedRPS, s.OfferedRPS})
	}
	charts := []struct {
		c     chart
		empty string
	}{
		{curve("Latency against the offered rate", latencyCaption, "offered /s", "ms", offered, latency(offered)...),
			"No step was measured."},
		{curve("Latency against the achieved rate", "The same steps placed at the rate the target answered.", "achieved /s", "ms", achieved,
			latency(achieved)...),
			"No step was measured."},
		{curve("Error rate against the offered rate", "Failed requests in percent of those sent.", "offered /s", "%", offered,
			line("error rate", series{color: colVermilion}, offered, func(s result.CapacityStep) float64 { return s.ErrorRatePct }, nil)),
			"No step was measured."},
		{curve("Achieved against the offered rate", "Where the achieved rate leaves the offered one, the target or the generator fell behind.",
			"offered /s", "requests/s", offered,
			line("achieved", series{color: colGreen}, offered, achieved, nil), diagonal),
			"No step was measured."},
		{curve("Target CPU against the offered rate", "The target's highest CPU during each step.", "offered /s", "% of one core", offered,
			line("target CPU", series{color: colPurple}, offered, func(s result.CapacityStep) float64 {
				if s.TargetCPUMaxPct == nil {
					return 0
				}
				return *s.TargetCPUMaxPct
			}, func(s result.CapacityStep) bool { return s.TargetCPUMaxPct != nil })),
			"The target's CPU was not sampled (--target-pid, --target-process or --target-metrics)."},
	}
	s := section{ID: "curve", Title: "Curve"}
	for _, ch := range charts {
		s.Figures = append(s.Figures, ch.c.figure(ch.empty))
	}
	return s
}

// capacitySteps is the table of every step in the order it ran, a
// failing step's cause beside its verdict.
func capacitySteps(c *result.Capacity) section {
	followed := result.AnyFollowed(c.Steps)
	cols := []string{"#", "phase", "offered /s", "achieved /s", "p50 ms", "p99 ms"}
	if followed {
		cols = append(cols, "e2e p99 ms")
	}
	t := table{Caption: "Every step in the order it ran; CPU is the target's highest, when sampled; a failing step's cause in brackets.",
		Head: head(2, append(cols, "error %", "CPU %", "verdict", "decided by")...)}
	n := len(t.Head)
	t.Head[0].Class, t.Head[n-2].Class, t.Head[n-1].Class = "num", "", ""
	for _, s := range c.Steps {
		verdict := cell{Text: "pass", Class: "pass"}
		if !s.Pass {
			verdict = cell{Text: "FAIL", Class: "fail nowrap"}
			if s.Cause != "" {
				verdict.Text += " (" + s.Cause + ")"
			}
		}
		decided := s.Decided
		if s.StoppedEarly {
			decided += "; stopped early"
		}
		figures := summary.CapacityFigures(s, followed)
		row := make([]cell, len(figures), len(figures)+2)
		for i, v := range figures {
			row[i] = num(v)
		}
		row[1] = cell{Text: figures[1], Class: "nowrap"} // the phase
		t.Rows = append(t.Rows, append(row, verdict, txt(decided)))
	}
	s := section{ID: "steps", Title: "Steps", Tables: []table{t}}
	if len(t.Rows) == 0 {
		s.Paras, s.Tables = []string{"No step ran."}, nil
	}
	return s
}
