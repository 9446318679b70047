package summary

import (
	"io"
	"strings"
	"time"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/table"
)

// CapacityStepLine is the one line a capacity search prints on stderr
// when a step is judged: its rate, verdict and cause, the figure that
// decided, the rate achieved and the budget spent, so that a person
// watching sees where the search is going and how much is left.
func CapacityStepLine(s result.CapacityStep) string {
	verdict := "pass"
	if !s.Pass {
		verdict = "FAIL (" + s.Cause + ")"
	}
	var b strings.Builder
	b.WriteString("step " + format.Num(float64(s.N)) + " " + s.Phase + " " + CapacityRate(s.OfferedRPS, s.Producers) + ": " + verdict)
	if s.Decided != "" {
		b.WriteString(", " + s.Decided)
	}
	b.WriteString("; achieved " + format.Num(s.AchievedRPS) + "/s")
	if s.StoppedEarly {
		b.WriteString(", stopped early")
	}
	b.WriteString("; " + seconds(s.SpentS) + " of " + seconds(s.BudgetS))
	return table.EscapeControl(b.String())
}

// seconds writes a count of seconds as a duration a person reads (1m12s).
func seconds(s float64) string {
	return (time.Duration(s*float64(time.Second)) / time.Second * time.Second).String()
}

// Capacity writes the text summary of a capacity search: what it found,
// what limited it, what it could not decide, and a table of every step a
// person can paste (rate, achieved, p50, p99, error %, target CPU,
// verdict).
func Capacity(w io.Writer, d *result.CapacityDocument) error {
	p := format.NewPrinter(w)
	c := &d.Capacity
	p.Printf("Capacity search: %s\n", d.Config.URL)
	if hv := HVShape(d.Config); hv != "" {
		p.Printf("  %s\n", hv)
	}
	p.Printf("  SLOs: %s; precision %s %%, budget %s\n", strings.Join(d.Config.SLOs, ", "),
		format.Num(c.AskedPrecisionPct), seconds(c.BudgetS))
	p.Println("")
	switch {
	case c.MaxRPS > 0 && c.FailRPS > 0:
		p.Printf("  Capacity: %s (broke at %s: %s; %s %% apart%s)\n", CapacityRate(c.MaxRPS, c.MaxProducers),
			CapacityRate(c.FailRPS, c.FailProducers), c.BrokenBy, format.Num(c.PrecisionPct), confirmedWords(c.Confirmed))
	case c.MaxRPS > 0:
		p.Printf("  Capacity: at least %s\n", CapacityRate(c.MaxRPS, c.MaxProducers))
	default:
		p.Println("  Capacity: no rate held the SLOs")
	}
	if c.LimitedBy != "" {
		p.Printf("  Limited by: the %s\n", c.LimitedBy)
	}
	if c.Advice != "" {
		p.Wrapped("  ", c.Advice)
	}
	if c.Undecided != "" {
		p.Wrapped("  Undecided: ", c.Undecided)
	}
	p.Printf("  Steps: %d in %s\n\n", len(c.Steps), seconds(c.SpentS))
	p.Lines(capacityTable(c.Steps).Plain("  "))
	for _, warn := range d.Warnings {
		p.Wrapped("  WARNING: ", warn)
	}
	return p.Err()
}

func confirmedWords(ok bool) string {
	if ok {
		return ", both run again"
	}
	return ", not confirmed"
}

// capacityTable is the steps as a table; steps whose events were
// followed into Kafka (HV-VES) add the travel time's p99.
func capacityTable(steps []result.CapacityStep) *table.Table {
	followed := result.AnyFollowed(steps)
	cols := []table.Column{table.Right("#"), table.Left("phase"), table.Right("rate /s"), table.Right("achieved /s"),
		table.Right("p50 ms"), table.Right("p99 ms")}
	if followed {
		cols = append(cols, table.Right("e2e p99 ms"))
	}
	t := &table.Table{Cols: append(cols, table.Right("error %"), table.Right("target CPU %"), table.Left("verdict"))}
	for _, s := range steps {
		verdict := "pass"
		if !s.Pass {
			verdict = "FAIL (" + s.Cause + ")"
		}
		if s.StoppedEarly {
			verdict += ", stopped early"
		}
		t.Add(append(CapacityFigures(s, followed), verdict)...)
	}
	return t
}

// CapacityFigures are a step's figures as every rendering of a search's
// steps shows them, in their columns' order: its number and phase, the
// offered and achieved rate, p50 and p99, the travel time's p99 when the
// search's steps followed their events (result.AnyFollowed), its error
// rate and the target's highest CPU. Each rendering names the columns
// and adds its verdict after them.
func CapacityFigures(s result.CapacityStep, followed bool) []string {
	cpu := format.NA
	if s.TargetCPUMaxPct != nil {
		cpu = format.CPU(*s.TargetCPUMaxPct)
	}
	row := []string{format.Num(float64(s.N)), s.Phase, format.Num(s.OfferedRPS), format.Num(s.AchievedRPS), format.Ms(s.P50Ms),
		format.Ms(s.P99Ms)}
	if followed {
		e2e := format.NA
		if s.E2EP99Ms != nil {
			e2e = format.Ms(*s.E2EP99Ms)
		}
		row = append(row, e2e)
	}
	return append(row, format.Pct(s.ErrorRatePct), cpu)
}

// HVShape says, for a search of HV-VES message rates, what its rates
// count: "HV-VES: 2 producers, messages of 8192 bytes; rates are
// messages a second", or when it added producers, how many messages a
// second each sends. Empty for REST.
func HVShape(c result.CapacityConfig) string {
	switch {
	case c.Protocol != result.ProtocolHV:
		return ""
	case c.Vary == result.VaryProducers && c.IntervalS > 0:
		return "HV-VES: producers added one by one, each sending a message every " +
			(time.Duration(c.IntervalS * float64(time.Second))).String() + " (" + format.Num(1/c.IntervalS) +
			"/s), messages of " + format.Num(float64(c.SizeBytes)) + " bytes; rates are all producers' messages a second"
	}
	return "HV-VES: " + format.Num(float64(c.Producers)) + " producers, messages of " + format.Num(float64(c.SizeBytes)) +
		" bytes; rates are messages a second"
}

// CapacityRate is a search's rate as a person reads it, "700/s", with the
// producers it takes when the search added producers: "700/s (7
// producers)".
func CapacityRate(rps float64, producers int) string {
	if producers > 0 {
		return format.Num(rps) + "/s (" + format.Num(float64(producers)) + " producers)"
	}
	return format.Num(rps) + "/s"
}
