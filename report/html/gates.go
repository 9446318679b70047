package html

import (
	"fmt"

	"github.com/vesload/vesload/report/compare"
)

// gateSections is the regression gates' section of a comparison page,
// none without gates: one row per gate with its status, the measured
// change, its p-value and the tolerance, and a badge for the whole.
func gateSections(cmp *compare.Comparison) []section {
	g := cmp.Gates
	if g == nil {
		return nil
	}
	s := section{ID: "gates", Title: "Gates", Paras: []string{g.Basis + "; " + g.Policy() + "."}}
	if g.Limit != "" {
		s.Paras = append(s.Paras, "Cannot decide: "+g.Limit+".")
	}
	t := table{Head: head(-1, "gate", "result", "change", "p", "tolerance", "")}
	for _, v := range g.Verdicts {
		status := cell{Text: v.Status(), Class: "pass"}
		if !v.Pass {
			status.Class = "fail"
		}
		t.Rows = append(t.Rows, []cell{txt(v.Gate.Expr), status, num(v.ChangeText()), num(v.PText()),
			num(v.Gate.Tolerance()), txt(v.Sentence(cmp.NameA, cmp.NameB, cmp.Alpha))})
	}
	s.Tables = []table{t}
	s.Badge = &badge{Text: "PASS", Class: "pass"}
	if n := g.Failed(); n > 0 {
		s.Badge = &badge{Text: fmt.Sprintf("FAIL (%d of %d)", n, len(g.Verdicts)), Class: "fail"}
	}
	return []section{s}
}
