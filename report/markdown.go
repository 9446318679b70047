package report

import (
	"errors"
	"fmt"
	"io"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/seed"
	"github.com/vesload/vesload/report/summary"
	"github.com/vesload/vesload/report/table"
)

// Markdown writes r as the one-row seed table, ready to paste into a wiki
// page beside earlier runs: the REST table, or for an HV-VES run the
// table of ONAP's HV-VES pages (the one the summary prints), and the
// run's labels under it. Cells with no data read "n/a".
func Markdown(w io.Writer, r *result.Result) error {
	if r == nil {
		return errors.New("markdown: no result")
	}
	var t table.Table
	if r.HV != nil { // an HV-VES run: ONAP's HV-VES table, as the summary shows it
		t.Cols = seed.HVColumns()
		t.Add(seed.HVRow(r)...)
	} else {
		d := seed.AnyDelivery(r)
		t.Cols = seed.Columns(d)
		t.Add(seed.Row(r, d)...)
	}
	p := format.NewPrinter(w)
	p.Lines(t.Pipe(""))
	if l := summary.BrokenLine(r.HV); l != "" { // the written count holds them: say so beside it
		p.Println("")
		p.Println("Note: " + markdownText(l) + ".")
	}
	if l := r.Config.LabelText(); l != "" { // what a wiki page's earlier rows are told apart by
		p.Println("")
		p.Println("Labels: " + table.EscapeText(l))
	}
	if p.Err() != nil {
		return fmt.Errorf("markdown: %w", p.Err())
	}
	return nil
}

// MarkdownTable writes several runs as one seed table, one row each, with
// a leading Run column: names[i] labels rs[i]. With no names each row is
// labelled by its rate and start time; otherwise there must be one name
// per result.
func MarkdownTable(w io.Writer, rs []*result.Result, names []string) error {
	if len(names) > 0 && len(names) != len(rs) {
		return fmt.Errorf("markdown table: %d results but %d names", len(rs), len(names))
	}
	hv := 0
	for i, r := range rs {
		if r == nil {
			return fmt.Errorf("markdown table: result %d is missing", i+1)
		}
		if r.HV != nil {
			hv++
		}
	}
	if hv > 0 && hv < len(rs) {
		return errors.New("markdown table: HV-VES and REST runs have different columns: give runs of one protocol")
	}
	d := seed.AnyDelivery(rs...)
	cols := seed.Columns(d)
	if hv > 0 {
		cols = seed.HVColumns()
	}
	t := table.Table{Cols: append([]table.Column{table.Left("Run")}, cols...)}
	for i, r := range rs {
		name := table.EscapeText(runLabel(r))
		if len(names) > 0 {
			name = names[i]
		}
		row := seed.HVRow
		if hv == 0 {
			row = func(r *result.Result) []string { return seed.Row(r, d) }
		}
		t.Add(append([]string{table.EscapeCell(name)}, row(r)...)...)
	}
	p := format.NewPrinter(w)
	p.Lines(t.Pipe(""))
	if p.Err() != nil {
		return fmt.Errorf("markdown table: %w", p.Err())
	}
	return nil
}

// runLabel names a run that was given no name: its rate, start time and
// labels tell repetitions apart.
func runLabel(r *result.Result) string {
	label := format.Num(r.RPS.Target) + " rps"
	if r.Config.Profile != "" {
		label = r.Config.Profile + " " + label
	}
	if !r.Started.IsZero() {
		label += " " + r.Started.UTC().Format("2006-01-02 15:04:05Z")
	}
	if l := r.Config.LabelText(); l != "" {
		label += " (" + l + ")"
	}
	return label
}
