package capcmp

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/table"
	"github.com/vesload/vesload/report/trend"
)

// Build is one point of a capacity history: the searches of one build
// (one value of the --by label, or one file).
type Build struct {
	Side
	// ChangePct is the build's mean capacity against the build before
	// it; Real says that the change is beyond the precision.
	ChangePct *float64 `json:"change_pct,omitempty"`
	Real      bool     `json:"beyond_precision,omitempty"`
}

// History is the capacity of a history of builds, oldest first.
type History struct {
	By     string  `json:"by,omitempty"`
	Builds []Build `json:"builds"`
	// ChangePoints are the indexes (into Runs) where the series of
	// every search's max rps changed, found by trend's detector;
	// Detection says how, or why it was not tried.
	Runs         []float64 `json:"runs_max_rps"`
	ChangePoints []int     `json:"change_points"`
	Detection    string    `json:"detection"`
}

// TrendOptions say how a history is ordered and searched.
type TrendOptions struct {
	// By is the label the searches are ordered and grouped by; empty:
	// by start time, each its own build named by its file.
	By       string
	Detector trend.Detector
}

// Trend follows the capacity of docs (named by names, their files) over
// builds. With By, a search without the label is an error naming it.
func Trend(docs []*result.CapacityDocument, names []string, opts TrendOptions) (*History, error) {
	type item struct {
		doc  *result.CapacityDocument
		name string
		key  string
	}
	items := make([]item, len(docs))
	for i, d := range docs {
		items[i] = item{doc: d, name: names[i], key: names[i]}
		if opts.By != "" {
			v, ok := d.Labels[opts.By]
			if !ok {
				return nil, fmt.Errorf("%s: no label %q to order the history by (vesload capacity --label %s=VALUE)", names[i], opts.By, opts.By)
			}
			items[i].key = v
		}
	}
	slices.SortStableFunc(items, func(a, b item) int {
		if opts.By != "" {
			return trend.NaturalCompare(a.key, b.key)
		}
		return a.doc.Started.Compare(b.doc.Started)
	})
	h := &History{By: opts.By, ChangePoints: []int{}}
	starts := make([]bool, len(items))
	for i, it := range items {
		h.Runs = append(h.Runs, it.doc.Capacity.MaxRPS)
		n := len(h.Builds)
		if n > 0 && opts.By != "" && h.Builds[n-1].Name == it.key {
			b := &h.Builds[n-1]
			b.Files = append(b.Files, it.name)
			continue
		}
		starts[i] = true
		h.Builds = append(h.Builds, Build{Side: Side{Name: it.key, Files: []string{it.name}}})
	}
	k := 0
	for i := range h.Builds {
		b := &h.Builds[i]
		b.Side = newSide(b.Name, b.Files, docsOf(items[k:k+len(b.Files)], func(it item) *result.CapacityDocument { return it.doc }))
		k += len(b.Files)
		if i > 0 {
			p := h.Builds[i-1]
			if p.Mean > 0 {
				ch := (b.Mean - p.Mean) / p.Mean * 100
				b.ChangePct = &ch
			}
			b.Real = p.high() <= b.Low || b.high() <= p.Low
		}
	}
	d := opts.Detector
	d.Starts = starts
	minSize := d.MinSize
	if minSize == 0 {
		minSize = trend.DefaultMinSize
	}
	if len(h.Runs) < 2*minSize {
		h.Detection = fmt.Sprintf("no change points: %d searches, fewer than two segments of %d (--min-segment); changes beyond the precision are marked per build", len(h.Runs), minSize)
		return h, nil
	}
	for _, p := range d.Detect("capacity", h.Runs) {
		h.ChangePoints = append(h.ChangePoints, p.Index)
	}
	h.Detection = "change points of max rps, one value per search: " + d.Describe()
	return h, nil
}

func docsOf[T any](items []T, doc func(T) *result.CapacityDocument) []*result.CapacityDocument {
	out := make([]*result.CapacityDocument, len(items))
	for i, it := range items {
		out[i] = doc(it)
	}
	return out
}

// trendColumns are the columns of the builds' table: the sides' table's,
// a build for a side, and the change against the build before.
var trendColumns = append([]table.Column{table.Left("build")}, append(slices.Clone(compareColumns[1:]), table.Left("change"))...)

// Columns are the columns of the builds' table, so that the HTML page
// shows the table the text and Markdown renderings do.
func (h *History) Columns() []table.Column { return slices.Clone(trendColumns) }

// Cells are the rows of that table, one per build, oldest first,
// unescaped: each rendering escapes them its own way.
func (h *History) Cells() [][]string { return h.trendRows() }

// trendRows are the builds as the tables show them.
func (h *History) trendRows() [][]string {
	var rows [][]string
	for _, b := range h.Builds {
		change := "-"
		if b.ChangePct != nil {
			change = fmt.Sprintf("%+.1f %%", *b.ChangePct)
			if b.Real {
				change += " (beyond precision)"
			} else {
				change += " (within precision)"
			}
		}
		rows = append(rows, append(sideRow(b.Side), change))
	}
	return rows
}

// changeLines say where the series changed.
func (h *History) changeLines() []string {
	out := []string{h.Detection}
	for _, i := range h.ChangePoints {
		out = append(out, fmt.Sprintf("change point before search %d: max rps %s/s before, %s/s from it", i+1, Rate(h.Runs[i-1]), Rate(h.Runs[i])))
	}
	return out
}

// TrendText writes the history as text: a table of builds and the
// change points.
func TrendText(w io.Writer, h *History) error {
	var b strings.Builder
	b.WriteString("capacity over builds\n\n")
	writeLines(&b, (&table.Table{Cols: trendColumns, Rows: h.trendRows()}).Plain(""))
	b.WriteString("\n")
	for _, l := range h.changeLines() {
		b.WriteString(l + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// TrendMarkdown writes the history as a Markdown table and the change
// points as a list.
func TrendMarkdown(w io.Writer, h *History) error {
	var b strings.Builder
	b.WriteString("### Capacity over builds\n\n")
	writeLines(&b, markdownTable(trendColumns, h.trendRows()))
	b.WriteString("\n")
	for _, l := range h.changeLines() {
		b.WriteString("- " + l + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// TrendJSON writes the history as indented JSON.
func TrendJSON(w io.Writer, h *History) error { return encode(w, h) }
