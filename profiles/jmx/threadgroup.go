package jmx

import (
	"math"
	"strconv"
	"strings"

	"github.com/vesload/vesload/profiles"
)

// group is one translated Thread Group.
type group struct {
	el        *element
	threads   float64
	ramp      float64 // seconds
	loops     float64 // -1: forever
	scheduler bool
	duration  float64 // seconds, with the scheduler
	delay     float64 // seconds, with the scheduler
	requests  []*request
	timers    []*element
}

// perIteration is how many requests one thread sends per loop.
func (g *group) perIteration() float64 {
	var k float64
	for _, r := range g.requests {
		k += float64(r.weight)
	}
	return k
}

// threadGroup reads a Thread Group's settings and its samplers; it
// returns nil (with a warning) when the group has no HTTP sampler.
func (imp *importer) threadGroup(el *element, sc scope) *group {
	n := el.n
	g := &group{el: el}
	g.threads = imp.number(el, "number of threads", n.str("ThreadGroup.num_threads"), 1)
	g.ramp = imp.number(el, "ramp-up", n.str("ThreadGroup.ramp_time"), 1)
	g.scheduler = n.flag("ThreadGroup.scheduler", false)
	g.loops = 1
	if lc := n.prop("ThreadGroup.main_controller"); lc != nil {
		g.loops = imp.number(el, "loop count", lc.str("LoopController.loops"), 1)
		if g.loops < 0 {
			g.loops = -1
		}
	}
	if g.scheduler {
		g.duration = imp.number(el, "duration", n.str("ThreadGroup.duration"), 0)
		g.delay = imp.number(el, "startup delay", n.str("ThreadGroup.delay"), 0)
	}
	imp.collect(g, el.children, sc, 1)
	if len(g.requests) == 0 {
		imp.warn(el, "no HTTP sampler with a body in this thread group: not translated")
		return nil
	}
	return g
}

// collect gathers the HTTP samplers under els, looking through simple
// and loop controllers (a loop of n repeats its samplers: weight ×n).
func (imp *importer) collect(g *group, els []*element, sc scope, weight int) {
	sc = imp.extend(sc, els)
	g.addTimers(sc.timers)
	for _, el := range els {
		if !el.enabled() || isScoped(el) {
			continue
		}
		switch c := el.class(); {
		case isHTTPSampler(el):
			g.addTimers(imp.extend(scope{}, el.children).timers)
			if r := imp.sampler(el, sc, weight); r != nil {
				if r.body == "" {
					imp.warn(el, "no request body: not translated (vesload sends VES events)")
					continue
				}
				g.requests = append(g.requests, r)
			}
		case c == "GenericController":
			imp.collect(g, el.children, sc, weight)
		case c == "LoopController":
			n := imp.number(el, "loop count", el.str("LoopController.loops"), 1)
			times := 1
			if n >= 1 && n <= 1000 {
				times = int(n)
			} else {
				imp.warn(el, "loop count %v not translated: its samplers count once per iteration", n)
			}
			imp.collect(g, el.children, sc, weight*times)
		case c == "TransactionController":
			imp.warn(el, "transaction not reported as one sample: its samplers are reported each on its own")
			imp.collect(g, el.children, sc, weight)
		case strings.HasSuffix(c, "Controller"):
			imp.warnElement(el)
			imp.collect(g, el.children, sc, weight)
		default:
			imp.warnElement(el)
		}
	}
}

func (g *group) addTimers(timers []*element) {
	for _, t := range timers {
		dup := false
		for _, have := range g.timers {
			dup = dup || have == t
		}
		if !dup {
			g.timers = append(g.timers, t)
		}
	}
}

// number reads a numeric setting. JMeter allows expressions there: a
// property ${__P(name,default)} or a user defined variable gives its
// value, with a warning that the run uses it.
func (imp *importer) number(el *element, what, raw string, def float64) float64 {
	s := strings.TrimSpace(raw)
	if s == "" {
		return def
	}
	if profiles.IsPlaceholder(s) {
		inner := s[2 : len(s)-1]
		fn, args := splitCall(inner)
		switch {
		case strings.EqualFold(fn, "__P") && len(args) > 1:
			imp.warn(el, "%s comes from JMeter property %s: its default %s is used", what, strings.TrimSpace(args[0]), strings.TrimSpace(args[1]))
			s = strings.TrimSpace(args[1])
		case imp.vars[inner] != "":
			s = strings.TrimSpace(imp.vars[inner])
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < -1 {
		imp.warn(el, "%s %q is not a number vesload can use: %v assumed", what, raw, def)
		return def
	}
	return f
}
