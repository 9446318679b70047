package html

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"slices"
	"strings"

	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/report/capcmp"
	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	texttable "github.com/vesload/vesload/report/table"
)

// capacitySide is one side of a capacity comparison as its page draws
// it: the side's figures, the searches they came from and its look.
type capacitySide struct {
	capcmp.Side
	docs   []*result.CapacityDocument
	color  color.RGBA
	dashed bool
}

// searchName names search i of the side in legends and tables: the side
// and its file, or the side alone when it has one search.
func (s capacitySide) searchName(i int) string {
	if len(s.docs) == 1 {
		return s.Name
	}
	if i < len(s.Files) {
		return s.Name + " " + s.Files[i]
	}
	return fmt.Sprintf("%s search %d", s.Name, i+1)
}

// CapacityComparison writes a comparison of two sides' capacity
// documents (report/capcmp) as one self-contained HTML page, so that
// `vesload compare --html` has a page for capacity as it has for runs:
// the verdict with each side's capacity, the interval it lies in, its
// precision and who limited it; the gates; every search's p99 and error
// rate against the offered rate overlaid, coloured by side, each side's
// highest pass marked; and the searches behind each side. a and b are
// the documents c was computed from, in the same order: they supply the
// curves.
func CapacityComparison(w io.Writer, c *capcmp.Comparison, a, b []*result.CapacityDocument) error {
	if c == nil {
		return errors.New("html capacity comparison: no comparison")
	}
	if slices.Contains(a, nil) || slices.Contains(b, nil) {
		return errors.New("html capacity comparison: a document is missing")
	}
	sides := []capacitySide{
		{Side: c.A, docs: a, color: colBlue},
		{Side: c.B, docs: b, color: colVermilion, dashed: true},
	}
	p := &page{
		Title:    "vesload capacity comparison: " + c.A.Name + " vs " + c.B.Name,
		Heading:  "Capacity: " + c.A.Name + " vs " + c.B.Name,
		Meta:     capacityComparisonMeta(sides),
		Warnings: capacityWarnings(sides),
		Footer:   fmt.Sprintf("Written by vesload from %d capacity documents (%s).", len(a)+len(b), result.CapacitySchema),
	}
	p.Sections = append([]section{capacityVerdict(c)}, capacityGates(c)...)
	p.Sections = append(p.Sections, capacityOverlay(sides), capacitySearches(sides))
	p.escapeControl()
	return render(w, p)
}

// capacityComparisonMeta says how two capacities are compared and what
// each side searched: its target and SLOs, from its first search.
func capacityComparisonMeta(sides []capacitySide) []string {
	meta := []string{"A search's answer is an interval: its highest pass up to its lowest fail. Two sides differ only " +
		"where their intervals, from the lowest highest pass to the highest lowest fail of their searches, do not overlap."}
	for _, s := range sides {
		if len(s.docs) == 0 {
			continue
		}
		cfg := s.docs[0].Config
		target := redact.URL(cfg.URL)
		if cfg.Emulator {
			target += " (built-in emulator)"
		}
		meta = append(meta, s.Name+": "+target+"; SLOs "+strings.Join(cfg.SLOs, ", "))
	}
	return meta
}

// capacityWarnings are SLOs that differ between the searches, what each
// search could not decide and its set-up's notices, each named by its
// side and file.
func capacityWarnings(sides []capacitySide) []string {
	var out, slos []string
	for _, s := range sides {
		for _, d := range s.docs {
			set := strings.Join(d.Config.SLOs, ", ")
			if set == "" {
				set = "none"
			}
			if !slices.Contains(slos, set) {
				slos = append(slos, set)
			}
		}
	}
	if len(slos) > 1 {
		out = append(out, "the searches were judged by different SLOs ("+strings.Join(slos, "; ")+"): their capacities answer different questions")
	}
	for _, s := range sides {
		for i, d := range s.docs {
			name := s.searchName(i)
			if d.Capacity.Undecided != "" {
				out = append(out, name+": undecided: "+d.Capacity.Undecided)
			}
			for _, w := range d.Warnings {
				out = append(out, name+": "+redact.URL(w))
			}
		}
	}
	return out
}

// capacityVerdict is the verdict's section: the comparison's line, a
// badge for whether B holds less, more or the same within the
// precision, and the table of both sides with the interval of each.
func capacityVerdict(c *capcmp.Comparison) section {
	s := section{ID: "verdict", Title: "Verdict", Paras: []string{c.Verdict}}
	switch {
	case c.Real && c.ChangePct < 0:
		s.Badge = &badge{Text: "LESS", Class: "fail"}
	case c.Real:
		s.Badge = &badge{Text: "MORE", Class: "pass"}
	default:
		s.Badge = &badge{Text: "WITHIN THE PRECISION"}
	}
	cols := append(c.Columns(), texttable.Right("interval"))
	t := table{Head: headOf(cols)}
	for i, cells := range c.Cells() {
		side := c.A
		if i == 1 {
			side = c.B
		}
		t.Rows = append(t.Rows, rowOf(cols, append(cells, capacityInterval(side))))
	}
	s.Tables = []table{t}
	return s
}

// capacityInterval is the interval a side's capacity lies in, from its
// lowest highest pass up to below its highest lowest fail.
func capacityInterval(s capcmp.Side) string {
	if s.High == nil {
		return capcmp.Rate(s.Low) + "/s and up (a search never failed)"
	}
	return capcmp.Rate(s.Low) + "/s to below " + capcmp.Rate(*s.High) + "/s"
}

// capacityGates is the gates' section of a capacity comparison, none
// without gates: one row per gate with its word, B's floor and the
// reason, and a badge for the whole.
func capacityGates(c *capcmp.Comparison) []section {
	if len(c.Gates) == 0 {
		return nil
	}
	s := section{ID: "gates", Title: "Gates", Paras: []string{"A gate holds while " + c.B.Name + "'s mean capacity is at or above its floor, " +
		"a share of " + c.A.Name + "'s; below it but within the precision, or on a generator's limit, it is undecided, and --gate-undecided says what that means."}}
	t := table{Head: head(-1, "gate", "result", "floor", "")}
	t.Head[2].Class = "num"
	failed := 0
	for _, g := range c.Gates {
		status := cell{Text: g.Status(), Class: "pass nowrap"}
		if !g.Passed {
			status.Class = "fail nowrap"
			failed++
		}
		t.Rows = append(t.Rows, []cell{{Text: g.Expr, Class: "nowrap"}, status, num(capcmp.Rate(g.Floor) + "/s"), txt(g.Reason)})
	}
	s.Tables = []table{t}
	s.Badge = &badge{Text: "PASS", Class: "pass"}
	if failed > 0 {
		s.Badge = &badge{Text: fmt.Sprintf("FAIL (%d of %d)", failed, len(c.Gates)), Class: "fail"}
	}
	return []section{s}
}

// capacityOverlay is the curves' section: every search's p99 and error
// rate against the offered rate, coloured by side (a rate run more than
// once drawn at its last run), each side's highest pass marked. The
// sides try rates of their own, so a line spans the rates only others
// tried instead of breaking at each of them.
func capacityOverlay(sides []capacitySide) section {
	p99 := chart{title: "p99 against the offered rate", xLabel: "offered /s", yLabel: "ms", rate: true,
		caption: "Each search's p99 of every step's measured seconds, coloured by side; each side's highest pass marked."}
	errs := chart{title: "Error rate against the offered rate", xLabel: "offered /s", yLabel: "%", rate: true,
		caption: "Each search's failed requests in percent of those sent, coloured by side; each side's highest pass marked."}
	var marks []chartMark
	for _, s := range sides {
		for i, d := range s.docs {
			line := series{name: s.searchName(i), color: s.color, dashed: s.dashed, dots: true, span: true, thin: len(s.docs) > 3}
			lat, bad := line, line
			for _, st := range d.Capacity.Steps {
				lat.xy = append(lat.xy, point{st.OfferedRPS, st.P99Ms})
				bad.xy = append(bad.xy, point{st.OfferedRPS, st.ErrorRatePct})
			}
			p99.series, errs.series = append(p99.series, lat), append(errs.series, bad)
		}
		if s.Mean > 0 {
			label := s.Name + " highest pass " + capcmp.Rate(s.Mean) + "/s"
			if len(s.docs) > 1 {
				label += fmt.Sprintf(" (mean of %d)", len(s.docs))
			}
			marks = append(marks, chartMark{X: s.Mean, Label: label, Color: hexColor(s.color)})
		}
	}
	p99.marks, errs.marks = marks, marks
	const none = "No search of either side has steps."
	return section{ID: "curves", Title: "Curves", Figures: []figure{p99.figure(none), errs.figure(none)}}
}

// capacitySearches is the table of every search behind each side: what
// each found, the gate that broke its lowest fail and who it is laid to.
// Its start time and steps are on the search's own page (html.Capacity):
// left out here, they let a long file name keep its line.
func capacitySearches(sides []capacitySide) section {
	t := table{Head: head(2, "side", "file", "max rps", "lowest fail", "broken by", "precision", "limited by", "confirmed")}
	t.Head[4].Class, t.Head[6].Class, t.Head[7].Class = "", "", ""
	rate := func(v float64) string {
		if v <= 0 {
			return "none"
		}
		return capcmp.Rate(v) + "/s"
	}
	for _, s := range sides {
		for i, d := range s.docs {
			c := d.Capacity
			file := fmt.Sprintf("search %d", i+1)
			if i < len(s.Files) {
				file = s.Files[i]
			}
			confirmed := "yes"
			if !c.Confirmed {
				confirmed = "no"
			}
			t.Rows = append(t.Rows, []cell{key(s.Name), txt(file), num(rate(c.MaxRPS)), num(rate(c.FailRPS)), txt(orNA(c.BrokenBy)),
				num(fmt.Sprintf("±%.1f %%", c.PrecisionPct)), txt(orNA(c.LimitedBy)), txt(confirmed)})
		}
	}
	return section{ID: "searches", Title: "Searches", Tables: []table{t}}
}

// CapacityTrend writes a capacity history (report/capcmp) as one
// self-contained HTML page, so that `vesload trend --html` has a page
// for capacity as it has for runs: every build's capacity over the
// builds with the interval it lies in drawn as a band (its highest pass
// up to its lowest fail), the change points marked, the changes, and
// the table of builds.
func CapacityTrend(w io.Writer, h *capcmp.History) error {
	if h == nil || len(h.Builds) == 0 {
		return errors.New("html capacity trend: no history")
	}
	first, last := h.Builds[0], h.Builds[len(h.Builds)-1]
	order := "Searches ordered by their start time, each a build named by its file."
	if h.By != "" {
		order = "Searches ordered by the label " + h.By + " in natural version order, those of one build grouped."
	}
	p := &page{
		Title:   "vesload trend: capacity " + first.Name + " … " + last.Name,
		Heading: "Capacity over builds: " + first.Name + " … " + last.Name,
		Meta:    []string{order, h.Detection},
		Footer:  fmt.Sprintf("Written by vesload from %d capacity documents (%s).", len(h.Runs), result.CapacitySchema),
	}
	p.Sections = []section{
		capacityChanges(h),
		{ID: "chart", Title: "Capacity", Figures: []figure{capacityHistoryChart(h).figure("No build has a capacity to draw.")}},
		capacityBuilds(h),
	}
	p.escapeControl()
	return render(w, p)
}

// buildOf is the index of the build that search k (an index into the
// history's Runs) belongs to.
func buildOf(h *capcmp.History, k int) int {
	n := 0
	for i, b := range h.Builds {
		n += len(b.Files)
		if k < n {
			return i
		}
	}
	return len(h.Builds) - 1
}

// capacityChanges is the changes' section: the change points the
// detector found, and every build whose capacity changed beyond the
// precision against the build before it.
func capacityChanges(h *capcmp.History) section {
	s := section{ID: "changes", Title: "Changes"}
	t := table{Head: head(1, "first build after", "search", "max rps before", "from it", "change")}
	for _, k := range h.ChangePoints {
		if k <= 0 || k >= len(h.Runs) {
			continue
		}
		before, after := h.Runs[k-1], h.Runs[k]
		change := num(changeText(before, after))
		if cls := capacityClass(after - before); cls != "" {
			change.Class += " " + cls
		}
		t.Rows = append(t.Rows, []cell{key(h.Builds[buildOf(h, k)].Name), num(fmt.Sprint(k + 1)),
			num(capcmp.Rate(before) + "/s"), num(capcmp.Rate(after) + "/s"), change})
	}
	if len(t.Rows) > 0 {
		s.Tables = []table{t}
	} else {
		s.Paras = []string{"No change point in max rps."}
	}
	for i, b := range h.Builds {
		if i == 0 || !b.Real || b.ChangePct == nil {
			continue
		}
		s.Notes = append(s.Notes, fmt.Sprintf("%s holds %s/s, %+.1f %% against %s's %s/s: beyond the precision (the intervals do not overlap).",
			b.Name, capcmp.Rate(b.Mean), *b.ChangePct, h.Builds[i-1].Name, capcmp.Rate(h.Builds[i-1].Mean)))
	}
	return s
}

// changeText is a change in percent of before, or n/a without a before.
func changeText(before, after float64) string {
	if before <= 0 {
		return format.NA
	}
	return fmt.Sprintf("%+.1f %%", (after-before)/before*100)
}

// capacityClass colours a change of capacity: less is worse.
func capacityClass(delta float64) string {
	switch {
	case delta < 0:
		return "worse"
	case delta > 0:
		return "better"
	}
	return ""
}

// capacityHistoryChart is capacity over the builds, one x per build:
// its mean max rps, the band from its lowest max rps up to its highest
// lowest fail, and the change points marked before the build each
// starts at.
func capacityHistoryChart(h *capcmp.History) chart {
	names := make([]string, len(h.Builds))
	ticks := make([]float64, len(h.Builds))
	several := false
	mean := series{name: "max rps", color: colBlue, dots: true}
	low := series{name: "lowest max rps", color: lighter(colBlue), thin: true}
	fail := series{name: "lowest fail", color: colVermilion, dashed: true, thin: true, dots: true}
	for i, b := range h.Builds {
		x := float64(i)
		names[i], ticks[i] = b.Name, x
		several = several || len(b.MaxRPS) > 1
		mean.xy = append(mean.xy, point{x, b.Mean})
		low.xy = append(low.xy, point{x, b.Low})
		if b.High != nil {
			fail.xy = append(fail.xy, point{x, *b.High})
		}
	}
	c := chart{
		title:   "Capacity over builds",
		caption: "Each build's max rps (the mean of its searches' highest passes) and, shaded up to its lowest fail, the interval its capacity lies in.",
		xLabel:  "build", yLabel: "requests/s",
		runs:   &runAxis{names: names, ticks: thinTicks(ticks)},
		series: []series{mean, fail},
		band:   &chartBand{upper: fail.name, lower: mean.name, fill: "rgba(0,114,178,0.12)"},
	}
	if h.By == "" {
		c.xLabel = "search"
	}
	if several {
		c.series = append(c.series, low)
		c.band.lower = low.name
		c.caption = "Each build's max rps (the mean of its searches' highest passes) and, shaded from its lowest max rps up to its lowest fail, the interval its capacity lies in."
	}
	for _, k := range h.ChangePoints {
		if k <= 0 || k >= len(h.Runs) {
			continue
		}
		col := colGrey
		switch capacityClass(h.Runs[k] - h.Runs[k-1]) {
		case "worse":
			col = colVermilion
		case "better":
			col = colGreen
		}
		i := buildOf(h, k)
		label := h.Builds[i].Name + " " + changeText(h.Runs[k-1], h.Runs[k])
		if ch := h.Builds[i].ChangePct; ch != nil {
			label = fmt.Sprintf("%s %+.1f %%", h.Builds[i].Name, *ch) // the chart draws builds: the build's change
		}
		c.runs.marks = append(c.runs.marks, chartMark{X: float64(i) - 0.5, Label: label, Color: hexColor(col)})
	}
	switch n := len(c.runs.marks); n {
	case 0:
	case 1:
		c.caption += " The change point is marked before the build it starts at."
	default:
		c.caption += fmt.Sprintf(" The %d change points are marked before the build each starts at.", n)
	}
	return c
}

// capacityBuilds is the table of builds, oldest first, as the text
// rendering shows it, with the files of each; a change beyond the
// precision coloured by whether the build holds less or more.
func capacityBuilds(h *capcmp.History) section {
	cols := append(h.Columns(), texttable.Left("files"))
	t := table{Head: headOf(cols)}
	for i, cells := range h.Cells() {
		b := h.Builds[i]
		row := rowOf(cols, append(cells, strings.Join(b.Files, ", ")))
		if b.Real && b.ChangePct != nil {
			row[len(row)-2].Class = capacityClass(*b.ChangePct) // the change, before the files
		}
		t.Rows = append(t.Rows, row)
	}
	return section{ID: "builds", Title: "Builds", Tables: []table{t}}
}
