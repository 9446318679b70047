package capcmp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/trend"
)

// history is three builds given out of order, 1.10.0 with two searches.
func history(t *testing.T) *History {
	t.Helper()
	docs := []*result.CapacityDocument{
		search(1850, 1940, result.CauseTarget, "1.10.0", 3),
		search(2300, 2415, result.CauseTarget, "1.9.1", 1),
		search(2350, 2470, result.CauseTarget, "1.9.2", 2),
		search(1800, 1890, result.CauseGenerator, "1.10.0", 4),
	}
	h, err := Trend(docs, []string{"d.json", "a.json", "b.json", "c.json"}, TrendOptions{By: "build"})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestTrendOrdersAndGroups(t *testing.T) {
	t.Parallel()
	h := history(t)
	var got []string
	for _, b := range h.Builds {
		got = append(got, b.Name+":"+Rate(b.Mean))
	}
	if want := "1.9.1:2,300 1.9.2:2,350 1.10.0:1,825"; strings.Join(got, " ") != want {
		t.Fatalf("builds %v, want %s", got, want)
	}
	if h.Builds[0].ChangePct != nil || h.Builds[1].Real || !h.Builds[2].Real || *h.Builds[2].ChangePct > -20 {
		t.Errorf("changes: %+v", h.Builds)
	}
	if !h.Builds[2].Generator() || strings.Join(h.Builds[2].Files, " ") != "d.json c.json" {
		t.Errorf("1.10.0: limited by %v, files %v", h.Builds[2].LimitedBy, h.Builds[2].Files)
	}
	if len(h.ChangePoints) != 0 || !strings.Contains(h.Detection, "fewer than two segments") {
		t.Errorf("4 searches: change points %v, %q", h.ChangePoints, h.Detection)
	}
}

func TestTrendByStartTime(t *testing.T) {
	t.Parallel()
	h, err := Trend([]*result.CapacityDocument{search(900, 950, "target", "", 2), search(1000, 1050, "target", "", 1)}, []string{"late.json", "early.json"}, TrendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Builds) != 2 || h.Builds[0].Name != "early.json" || h.Builds[1].Name != "late.json" {
		t.Errorf("builds %+v, want early.json then late.json", h.Builds)
	}
}

func TestTrendMissingLabel(t *testing.T) {
	t.Parallel()
	_, err := Trend([]*result.CapacityDocument{search(900, 950, "target", "", 0)}, []string{"x.json"}, TrendOptions{By: "build"})
	if err == nil || !strings.Contains(err.Error(), `x.json: no label "build"`) {
		t.Errorf("error %v, want one naming x.json and the label", err)
	}
}

func TestTrendChangePoint(t *testing.T) {
	t.Parallel()
	var docs []*result.CapacityDocument
	var files []string
	for i, v := range []float64{2300, 2310, 2290, 2305, 1800, 1810, 1790, 1805} {
		build := "1.0"
		if i >= 4 {
			build = "2.0"
		}
		docs = append(docs, search(v, v*1.05, "target", build, i))
		files = append(files, "r.json")
	}
	h, err := Trend(docs, files, TrendOptions{By: "build", Detector: trend.Detector{MinSize: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.ChangePoints) != 1 || h.ChangePoints[0] != 4 || !strings.Contains(h.Detection, "E-Divisive") {
		t.Errorf("change points %v (%s), want [4]", h.ChangePoints, h.Detection)
	}
	var b bytes.Buffer
	if err := TrendJSON(&b, h); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Builds []struct {
			Name string  `json:"name"`
			Mean float64 `json:"mean_rps"`
		} `json:"builds"`
		ChangePoints []int `json:"change_points"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Builds) != 2 || back.Builds[1].Name != "2.0" || back.ChangePoints[0] != 4 {
		t.Errorf("JSON read back: %+v", back)
	}
	if !strings.Contains(strings.Join(h.changeLines(), "\n"), "change point before search 5: max rps 2,305/s before, 1,800/s from it") {
		t.Errorf("lines: %v", h.changeLines())
	}
}
