package html

import (
	"encoding/json"
	"fmt"
	"io"

	texttable "github.com/vesload/vesload/report/table"
)

// page is what the templates render: a heading, metadata lines and
// sections in order.
type page struct {
	Title    string
	Heading  string
	Meta     []string
	Banner   string // a notice that must not be missed (interrupted run)
	Warnings []string
	Sections []section
	Footer   string
	CSS      string // trusted: vesload's own styles and uPlot's, written as they are
	// Charts is the JSON the scripts draw the charts from; Scripts are
	// inlined after it, only when there is a chart to draw. Both are
	// trusted and written as they are (see layCharts for why the JSON
	// cannot end its script element).
	Charts  string
	Scripts []string
}

// section is one titled block: paragraphs, tables and figures, in that
// order.
type section struct {
	ID      string
	Title   string
	Badge   *badge
	Paras   []string
	Tables  []table
	Figures []figure
	Notes   []string
}

type badge struct {
	Text  string
	Class string // pass, fail
}

type table struct {
	Caption string
	Head    []cell
	Rows    [][]cell
}

type cell struct {
	Text  string
	Class string // num, key, nowrap, pass, fail, better, worse
}

func num(s string) cell { return cell{Text: s, Class: "num"} }
func txt(s string) cell { return cell{Text: s} }
func key(s string) cell { return cell{Text: s, Class: "key"} }

// head makes a header row; columns from numFrom on are numeric and
// right-aligned like their cells (-1: none).
func head(numFrom int, titles ...string) []cell {
	out := make([]cell, len(titles))
	for i, t := range titles {
		out[i] = cell{Text: t}
		if numFrom >= 0 && i >= numFrom {
			out[i].Class = "num"
		}
	}
	return out
}

// headOf is the header row of a table laid out by cols, the columns a
// text rendering aligns (report/table): numbers right-aligned.
func headOf(cols []texttable.Column) []cell {
	out := make([]cell, len(cols))
	for i, c := range cols {
		out[i] = cell{Text: c.Title}
		if c.Right {
			out[i].Class = "num"
		}
	}
	return out
}

// rowOf is one row of cells under cols: the first the row's key, numbers
// right-aligned.
func rowOf(cols []texttable.Column, cells []string) []cell {
	out := make([]cell, len(cells))
	for i, v := range cells {
		switch {
		case i == 0:
			out[i] = key(v)
		case i < len(cols) && cols[i].Right:
			out[i] = num(v)
		default:
			out[i] = txt(v)
		}
	}
	return out
}

// render writes p as a complete HTML document.
func render(w io.Writer, p *page) error {
	p.CSS = styles + uplotCSS
	if err := p.layCharts(); err != nil {
		return err
	}
	var b pageWriter
	b.page(p)
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("html: %w", err)
	}
	return nil
}

// layCharts numbers the charts of the page in order and gathers their
// data for the scripts.
func (p *page) layCharts() error {
	var data []*chartData
	for i := range p.Sections {
		for j := range p.Sections[i].Figures {
			f := &p.Sections[i].Figures[j]
			if f.data == nil {
				continue
			}
			f.ID = fmt.Sprintf("chart-%d", len(data)+1)
			f.data.ID = f.ID
			data = append(data, f.data)
		}
	}
	if len(data) == 0 {
		return nil
	}
	// encoding/json escapes <, > and &, so no value can end the script
	// element it is inlined into.
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("html charts: %w", err)
	}
	p.Charts = string(b)
	p.Footer += " Charts drawn by the inlined uPlot " + uplotRelease() + " (MIT licence)."
	p.Scripts = scripts()
	return nil
}

// styles are the page's only styles: system fonts (nothing to fetch),
// tables that fit a printed page, and print rules that keep a figure or
// a table row on one page and drop colour backgrounds.
const styles = `
:root { color-scheme: light; }
body { margin: 0; background: #f6f7f9; color: #1b1f24;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "Liberation Sans", Arial, sans-serif; }
main { max-width: 62rem; margin: 0 auto; padding: 1.5rem 2rem 3rem; background: #fff; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .6rem; padding-bottom: .2rem; border-bottom: 1px solid #d5d9de; }
p.meta { margin: .1rem 0; color: #4a525b; }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: .2rem 0; }
th, td { padding: .25rem .7rem; border-bottom: 1px solid #e3e6ea; text-align: left; vertical-align: top; }
th { background: #eef1f4; font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.key { color: #4a525b; white-space: nowrap; }
td.nowrap { white-space: nowrap; }
td { overflow-wrap: anywhere; }
.pass, .better { color: #0a6b2f; font-weight: 600; }
.fail, .worse { color: #b3261e; font-weight: 600; }
.badge { font-size: .85rem; padding: .1rem .5rem; border-radius: .3rem; border: 1px solid currentColor; vertical-align: middle; }
.banner { padding: .6rem .8rem; border-left: 4px solid #b3261e; background: #fbeceb; }
.warnings ul { padding-left: 1.2rem; }
.warnings li { color: #7a4b00; }
figure { margin: 1rem 0 1.6rem; }
figcaption { margin-bottom: .3rem; }
div.chart { width: 100%; min-height: 300px; }
.uplot { font-family: inherit; }
.u-legend { font-size: .85rem; }
.u-legend .u-marker { width: 1.2em; height: .35em; }
p.empty { color: #4a525b; font-style: italic; }
ul.notes { color: #4a525b; padding-left: 1.2rem; }
footer { margin-top: 2.5rem; color: #6a737d; font-size: .85rem; }
@media print {
  body { background: #fff; font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  h2 { break-after: avoid; }
  figure, table, tr { break-inside: avoid; }
  th { background: none; }
  .banner { background: none; }
}
`

// escapeControl escapes the runes a terminal would obey
// (table.EscapeControlLines) in every text of the page and its charts'
// names: a page of names and labels read from others' files may be
// written to stdout (--format html), where none of them may recolour,
// clear or reorder the terminal. A browser shows the escapes as text.
func (p *page) escapeControl() {
	e := texttable.EscapeControlLines
	all := func(ss []string) {
		for i := range ss {
			ss[i] = e(ss[i])
		}
	}
	p.Title, p.Heading, p.Banner, p.Footer = e(p.Title), e(p.Heading), e(p.Banner), e(p.Footer)
	all(p.Meta)
	all(p.Warnings)
	for i := range p.Sections {
		s := &p.Sections[i]
		s.Title = e(s.Title)
		if s.Badge != nil {
			s.Badge.Text = e(s.Badge.Text)
		}
		all(s.Paras)
		all(s.Notes)
		for j := range s.Tables {
			t := &s.Tables[j]
			t.Caption = e(t.Caption)
			for k := range t.Head {
				t.Head[k].Text = e(t.Head[k].Text)
			}
			for _, row := range t.Rows {
				for k := range row {
					row[k].Text = e(row[k].Text)
				}
			}
		}
		for j := range s.Figures {
			f := &s.Figures[j]
			f.Title, f.Caption, f.Empty = e(f.Title), e(f.Caption), e(f.Empty)
			if d := f.data; d != nil {
				d.Title = e(d.Title)
				all(d.XNames)
				for k := range d.Series {
					d.Series[k].Label = e(d.Series[k].Label)
				}
				for k := range d.Marks {
					d.Marks[k].Label = e(d.Marks[k].Label)
				}
			}
		}
	}
}
