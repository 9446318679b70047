package jmx

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vesload/vesload/profiles"
)

// piece is a stretch of a translated schedule: the arrival rate goes from
// from to to (requests per second) over dur seconds. count > 0 marks
// "exactly count requests spread evenly", which is written as requests:
// so that the total stays exact when the rate is not a whole number.
type piece struct {
	from, to float64
	dur      float64
	count    int64
}

// groupLoad is the load of one thread group.
type groupLoad struct {
	pieces  []piece
	closed  *profiles.Closed
	summary string
}

// unbounded is the duration given to a JMeter schedule that runs until
// stopped; the warning says so.
const unbounded = 600.0

// groupLoad translates a thread group's threads, ramp-up, loops,
// scheduler and throughput timers into arrival-rate pieces. single says
// the plan has only this group, so a closed-loop group can become the
// closed shape.
func (imp *importer) groupLoad(g *group, single bool) groupLoad {
	var gl groupLoad
	desc := fmt.Sprintf("%s threads, %s s ramp-up, %s", num(g.threads), num(g.ramp), loopsText(g.loops))
	if g.scheduler {
		desc += fmt.Sprintf(", scheduler %s s after a %s s delay", num(g.duration), num(g.delay))
	}
	if t := imp.rateTimer(g); t != nil {
		gl.pieces = imp.timerPieces(g, t)
		desc += ", " + strings.ToLower(t.shortClass())
	} else {
		gl = imp.threadPieces(g, single)
	}
	if g.scheduler && g.delay > 0 && gl.closed == nil {
		gl.pieces = append([]piece{{dur: g.delay}}, gl.pieces...)
	}
	gl.summary = desc
	return gl
}

func loopsText(loops float64) string {
	switch {
	case loops < 0:
		return "loops forever"
	case loops == 1:
		return "1 loop"
	}
	return num(loops) + " loops"
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// rateTimer picks the throughput timer that sets the group's rate: a
// Throughput Shaping Timer first, then a Precise, then a Constant
// Throughput Timer; others are reported as ignored.
func (imp *importer) rateTimer(g *group) *element {
	var best *element
	rank := map[string]int{classShapingTimer: 3, classPreciseThroughput: 2, classConstantThroughput: 1}
	for _, t := range g.timers {
		if best == nil || rank[t.class()] > rank[best.class()] {
			best = t
		}
	}
	for _, t := range g.timers {
		if t != best {
			imp.warn(t, "ignored in thread group %q: %s %q sets its rate", g.el.name(), best.shortClass(), best.name())
		}
	}
	return best
}

// threadPieces translates a group without throughput timer. T threads
// started over R seconds, one loop each, send T requests evenly over R:
// exact as an open schedule. More loops or a scheduler make JMeter's rate
// depend on response times, which is approximated and reported.
func (imp *importer) threadPieces(g *group, single bool) groupLoad {
	k := g.perIteration()
	ramp := g.ramp
	if ramp <= 0 {
		imp.warn(g.el, "ramp-up 0: JMeter starts all threads at once; spread over 1 s here")
		ramp = 1
	}
	switch {
	case g.loops == 1:
		count, over := g.threads*k, ramp
		if g.scheduler && g.duration > 0 && g.duration < over {
			count, over = math.Floor(count*g.duration/over), g.duration
		}
		return groupLoad{pieces: []piece{countPiece(count, over)}}
	case single && (g.loops < 0 || g.scheduler):
		step := g.duration
		if !g.scheduler || step <= 0 {
			step = unbounded
			imp.warn(g.el, "loops forever without a scheduler: translated as a closed model of %s requests in flight for %s s; change load.closed.step or use --duration", num(g.threads), num(step))
		} else {
			imp.warn(g.el, "loops until the scheduler ends: translated as a closed model of %s requests in flight for %s s (JMeter's rate then depends on response times)", num(g.threads), num(step))
		}
		if g.ramp > 0 {
			imp.warn(g.el, "ramp-up of %s s not modelled in the closed shape: all %s requests are in flight from the start", num(g.ramp), num(g.threads))
		}
		return groupLoad{closed: &profiles.Closed{Concurrency: []int{int(min(g.threads, 1e6))}, Step: seconds(step)}}
	case g.loops > 1:
		imp.warn(g.el, "%s loops without a throughput timer: JMeter's rate then depends on response times; translated as the ramp-up's pace repeated, %s requests over %s s",
			num(g.loops), num(g.threads*k*g.loops), num(ramp*g.loops))
		return groupLoad{pieces: []piece{countPiece(g.threads*k*g.loops, ramp*g.loops)}}
	}
	imp.warn(g.el, "loops until stopped (or the scheduler ends), which only a single thread group can translate as a closed model: translated as one pass of the ramp-up")
	return groupLoad{pieces: []piece{countPiece(g.threads*k, ramp)}}
}

func countPiece(count, over float64) piece {
	r := count / over
	return piece{from: r, to: r, dur: over, count: int64(min(count, 1e15))}
}

// timerPieces translates a throughput timer into the group's rate.
func (imp *importer) timerPieces(g *group, t *element) []piece {
	switch t.class() {
	case classShapingTimer:
		return imp.shapingPieces(g, t)
	case classPreciseThroughput:
		period := imp.number(t, "throughput period", t.str("throughputPeriod"), 3600)
		if period <= 0 {
			period = 3600
		}
		rate := imp.number(t, "throughput", t.str("throughput"), 0) / period
		dur := imp.number(t, "test duration", t.str("duration"), 0)
		if g.scheduler && g.duration > 0 && (dur <= 0 || g.duration < dur) {
			dur = g.duration
		}
		return imp.ratePieces(g, t, rate, dur)
	default: // Constant Throughput Timer, throughput per minute
		rate := imp.number(t, "throughput", t.str("throughput"), 0) / 60
		if t.str("calcMode") == "0" {
			rate *= g.threads // "this thread only"
		}
		dur := 0.0
		if g.scheduler {
			dur = g.duration
		}
		return imp.ratePieces(g, t, rate, dur)
	}
}

// ratePieces is a constant rate for dur seconds, or, when no duration
// bounds it, for as long as the group's loops take at that rate.
func (imp *importer) ratePieces(g *group, t *element, rate, dur float64) []piece {
	if rate <= 0 {
		imp.warn(t, "throughput is 0: the group is translated without it")
		return imp.threadPieces(g, false).pieces
	}
	if dur > 0 {
		return []piece{{from: rate, to: rate, dur: dur}}
	}
	if g.loops > 0 {
		count := g.threads * g.loops * g.perIteration()
		p := countPiece(count, count/rate)
		p.from, p.to = rate, rate
		return []piece{p}
	}
	imp.warn(t, "the rate is held until JMeter is stopped: translated as %s s; change the duration or use --duration", num(unbounded))
	return []piece{{from: rate, to: rate, dur: unbounded}}
}

// shapingPieces reads the Throughput Shaping Timer's rows (start rps, end
// rps, duration s), cut at the scheduler's duration.
func (imp *importer) shapingPieces(g *group, t *element) []piece {
	var out []piece
	var total float64
	for i, row := range t.n.items("load_profile") {
		if len(row.children) < 3 {
			imp.warn(t, "row %d of the load profile is incomplete: skipped", i+1)
			continue
		}
		from := imp.number(t, "start rps", row.children[0].text.String(), 0)
		to := imp.number(t, "end rps", row.children[1].text.String(), 0)
		dur := imp.number(t, "duration", row.children[2].text.String(), 0)
		if dur <= 0 || from < 0 || to < 0 {
			imp.warn(t, "row %d of the load profile has no duration or a negative rate: skipped", i+1)
			continue
		}
		if g.scheduler && g.duration > 0 && total+dur > g.duration {
			end := from + (to-from)*(g.duration-total)/dur
			dur, to = g.duration-total, end
		}
		if dur > 0 {
			out = append(out, piece{from: from, to: to, dur: dur})
			total += dur
		}
	}
	if len(out) == 0 {
		imp.warn(t, "empty load profile: the group is translated without it")
		return imp.threadPieces(g, false).pieces
	}
	return out
}

// buildShape combines the groups' loads: one after the other when the
// plan serializes its thread groups, summed when they run at once.
func (imp *importer) buildShape(groups []*group, serial bool) (profiles.Shape, string) {
	loads := make([]groupLoad, len(groups))
	var parts []string
	for i, g := range groups {
		loads[i] = imp.groupLoad(g, len(groups) == 1)
		parts = append(parts, loads[i].summary)
	}
	if c := loads[0].closed; c != nil {
		return profiles.Shape{Closed: c}, parts[0] + fmt.Sprintf(": %d requests in flight for %s", c.Concurrency[0], profiles.FormatDuration(c.Step))
	}
	var pieces []piece
	how := "one after the other"
	if serial {
		for _, l := range loads {
			pieces = append(pieces, l.pieces...)
		}
	} else {
		how = "at once"
		pieces = overlay(loads)
	}
	shape := toShape(pieces)
	result := fmt.Sprintf("%d requests in %s", shape.TotalRequests(), profiles.FormatDuration(shape.TotalDuration()))
	if len(groups) == 1 {
		return shape, parts[0] + ": " + result
	}
	return shape, fmt.Sprintf("%d thread groups run %s (%s): %s", len(groups), how, joinSummaries(parts), result)
}

// joinSummaries shortens the groups' summaries when they differ only in
// their thread counts, as in plans that step the load up: "1000, 1750 and
// 3500 threads, 150 s ramp-up, 1 loop each".
func joinSummaries(parts []string) string {
	var counts []string
	_, rest, _ := strings.Cut(parts[0], ", ")
	for _, p := range parts {
		n, r, _ := strings.Cut(p, ", ")
		if r != rest {
			return strings.Join(parts, "; ")
		}
		counts = append(counts, strings.TrimSuffix(n, " threads"))
	}
	last := len(counts) - 1
	return strings.Join(counts[:last], ", ") + " and " + counts[last] + " threads, " + rest + " each"
}

// overlay sums the groups' rates over time, cutting at every boundary.
// A stretch fed by a single piece keeps its exact count.
func overlay(loads []groupLoad) []piece {
	if len(loads) == 1 {
		return loads[0].pieces
	}
	type span struct {
		start float64
		p     piece
	}
	var spans []span
	cuts := map[float64]bool{0: true}
	for _, l := range loads {
		t := 0.0
		for _, p := range l.pieces {
			spans = append(spans, span{t, p})
			t += p.dur
			cuts[t] = true
		}
	}
	times := make([]float64, 0, len(cuts))
	for c := range cuts {
		times = append(times, c)
	}
	sort.Float64s(times)
	var out []piece
	for i := 0; i+1 < len(times); i++ {
		a, b := times[i], times[i+1]
		var sum piece
		sum.dur = b - a
		feeders := 0
		for _, s := range spans {
			end := s.start + s.p.dur
			if s.start > a || end < b || (s.p.from == 0 && s.p.to == 0) {
				continue
			}
			slope := (s.p.to - s.p.from) / s.p.dur
			sum.from += s.p.from + slope*(a-s.start)
			sum.to += s.p.from + slope*(b-s.start)
			feeders++
			if s.start == a && end == b {
				sum.count = s.p.count
			} else {
				sum.count = 0
			}
		}
		if feeders != 1 {
			sum.count = 0
		}
		out = append(out, sum)
	}
	return out
}

// toShape writes pieces as the simplest profile shape: one constant rate,
// one ramp, or stages (a zero-rate piece is a pause). Pauses at the end
// are dropped: nothing is sent in them.
func toShape(ps []piece) profiles.Shape {
	for len(ps) > 0 && ps[len(ps)-1].from == 0 && ps[len(ps)-1].to == 0 {
		ps = ps[:len(ps)-1]
	}
	if len(ps) == 1 {
		p := ps[0]
		if p.from != p.to {
			return profiles.Shape{Ramp: &profiles.Ramp{From: p.from, To: p.to, Over: seconds(p.dur)}}
		}
		st := constStage(p)
		return profiles.Shape{RPS: st.RPS, Requests: st.Requests, Duration: st.Duration}
	}
	var s profiles.Shape
	for _, p := range ps {
		if p.from != p.to {
			s.Stages = append(s.Stages, profiles.Stage{Ramp: &profiles.Ramp{From: p.from, To: p.to, Over: seconds(p.dur)}})
			continue
		}
		s.Stages = append(s.Stages, constStage(p))
	}
	return s
}

// constStage writes a constant piece as rps when the rate is a whole or
// short decimal number, else as a request count, which is exact.
func constStage(p piece) profiles.Stage {
	d := seconds(p.dur)
	if p.count > 0 {
		r := float64(p.count) / d.Seconds()
		if r*1000 != math.Round(r*1000) {
			return profiles.Stage{Requests: p.count, Duration: d}
		}
		return profiles.Stage{RPS: r, Duration: d}
	}
	return profiles.Stage{RPS: p.from, Duration: d}
}

// seconds converts JMeter seconds to a duration, to the millisecond.
func seconds(s float64) time.Duration {
	if s > 1e9 {
		s = 1e9
	}
	return time.Duration(math.Round(s*1000)) * time.Millisecond
}
