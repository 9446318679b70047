package html

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/redact"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/seed"
	"github.com/vesload/vesload/report/verdict"
)

// Report writes r as one self-contained HTML page: summary, verdicts,
// charts, errors, target and generator health, and configuration.
func Report(w io.Writer, r *result.Result) error {
	p, err := reportPage(r)
	if err != nil {
		return err
	}
	return render(w, p)
}

// reportPage lays out a run's page; Report writes it whole, the live
// page (live.go) in parts.
func reportPage(r *result.Result) (*page, error) {
	if r == nil {
		return nil, errors.New("html report: no result")
	}
	lat, svc, histNote := histograms(r)
	p := &page{
		Title:   "vesload report: " + targetLine(r),
		Heading: "vesload report",
		Meta:    reportMeta(r),
		Footer:  footer(r),
	}
	switch {
	case r.TargetExited != "":
		p.Banner = fmt.Sprintf("This run was stopped after %s of the %s planned: %s.",
			format.Seconds(r.DurationS), format.Seconds(r.Config.DurationS), r.TargetExited)
	case r.StoppedAtStart != "":
		p.Banner = fmt.Sprintf("This run was stopped at the start by the start-of-run rule after %s of the %s planned: %s.",
			format.Seconds(r.DurationS), format.Seconds(r.Config.DurationS), redact.URL(r.StoppedAtStart))
	case r.Interrupted:
		p.Banner = fmt.Sprintf("This run was interrupted after %s of the %s planned: the figures cover only the part that ran.",
			format.Seconds(r.DurationS), format.Seconds(r.Config.DurationS))
	}
	for _, w := range r.Warnings {
		p.Warnings = append(p.Warnings, redact.URL(w))
	}
	p.Sections = []section{summarySection(r)}
	if hv, ok := hvSection(r); ok {
		p.Sections = append(p.Sections, hv)
	}
	if d, ok := deliverySection(r); ok {
		p.Sections = append(p.Sections, d)
	}
	p.Sections = append(p.Sections,
		verdictSection(r),
		chartSection(r, lat, svc, histNote),
		errorSection(r),
		resourceSection(r),
		configSection(r),
	)
	return p, nil
}

// histograms decodes both distributions; a missing or broken one leaves
// its chart empty with a reason instead of failing the page.
func histograms(r *result.Result) (lat, svc *hdrhistogram.Histogram, note string) {
	var notes []string
	lat, err := result.DecodeHistogram(r.Histograms.Latency)
	if err != nil && !errors.Is(err, result.ErrNoHistogram) {
		notes = append(notes, "latency histogram: "+err.Error())
	}
	svc, err = result.DecodeHistogram(r.Histograms.Service)
	if err != nil && !errors.Is(err, result.ErrNoHistogram) {
		notes = append(notes, "service histogram: "+err.Error())
	}
	return lat, svc, strings.Join(notes, "; ")
}

func targetLine(r *result.Result) string {
	s := strings.TrimSpace(r.Config.Method + " " + redact.URL(r.Config.URL))
	if r.Config.Emulator {
		s += " (built-in emulator)"
	}
	if s == "" {
		return "unknown target"
	}
	return s
}

func reportMeta(r *result.Result) []string {
	meta := []string{"Target: " + targetLine(r)}
	run := fmt.Sprintf("%s requests/s for %s", format.Num(r.RPS.Target), format.Seconds(r.Config.DurationS))
	if r.Config.Profile != "" {
		run = "Profile " + r.Config.Profile + ": " + run
	}
	meta = append(meta, run)
	if !r.Started.IsZero() {
		meta = append(meta, fmt.Sprintf("Started %s, ran %s", fmtTime(r.Started), format.Seconds(r.DurationS)))
	}
	return meta
}

func footer(r *result.Result) string {
	tool := strings.TrimSpace(r.Tool.Name + " " + r.Tool.Version)
	if tool == "" {
		tool = "vesload"
	}
	return "Written by " + tool + " from the result document (" + result.Schema + ")."
}

func summarySection(r *result.Result) section {
	onap := table{Head: head(0, seed.Header()...)}
	var row []cell
	for _, v := range seed.Values(r) {
		row = append(row, num(v))
	}
	onap.Rows = [][]cell{row}

	// Two sums read off the table, as in the text summary: scheduled =
	// sent + never sent (pool_exhausted, or disconnected for HV-VES) +
	// not sent, and sent = ok + failed (+ in flight at a checkpoint). One
	// error rate, the result's: every error, never-sent ones included, of
	// the attempted requests.
	q := r.Requests
	unsent, pe := result.UnsentRow(r.Errors)
	rows := [][]cell{
		{key("scheduled"), num(format.Int(q.Scheduled))},
		{key("sent"), num(format.Int(q.Sent))},
		{key("ok"), num(format.Int(q.OK))},
		{key("failed (sent, not ok)"), num(format.Int(q.Errors - pe))},
	}
	if q.InFlight > 0 {
		rows = append(rows, []cell{key("in flight (checkpoint)"), num(format.Int(q.InFlight))})
	}
	rows = append(rows,
		[]cell{key(unsent + " (never sent)"), num(format.Int(pe))},
		[]cell{key("not sent (stopped)"), num(format.Int(q.NotSent))},
	)
	if q.NotYetDue > 0 { // a live page: the run goes on
		rows = append(rows, []cell{key("not yet due"), num(format.Int(q.NotYetDue))})
	}
	if pct, ok := r.ErrorRatePct(); ok {
		rows = append(rows, []cell{key("error rate (errors / attempted)"), num(format.Pct(pct) + "%")})
	}
	rows = append(rows,
		[]cell{key("rate target / achieved"), num(format.Num(r.RPS.Target) + " / " + format.Num(r.RPS.Achieved) + " /s")},
		[]cell{key("bytes sent / received"), num(format.Bytes(r.Bytes.Sent) + " / " + format.Bytes(r.Bytes.Received))},
	)
	if p := r.Preflight; p != nil {
		rows = append(rows, []cell{key("preflight"), txt(p.Summary())})
	}
	reqs := table{Caption: "Requests", Rows: rows}
	dist := table{
		Caption: "Distribution (ms)",
		Head:    distributionHead(),
		Rows: [][]cell{
			summaryRow("latency (from due time)", r.Latency),
			summaryRow("service time (from write)", r.Service),
		},
	}
	return section{
		ID: "summary", Title: "Summary",
		Paras: []string{"Latency in milliseconds, measured from each request's due time (coordinated-omission corrected); " +
			"the table uses the columns of the ONAP performance pages."},
		Tables: []table{onap, dist, reqs},
	}
}

// distributionHead is the head of a distribution's table: min, avg, the
// percentiles a result lists (result.Percentiles), max and count.
func distributionHead() []cell {
	titles := []string{"", "min", "avg"}
	for _, p := range result.Percentiles() {
		titles = append(titles, p.Label)
	}
	return head(1, append(titles, "max", "count")...)
}

// summaryRow is the row of a distribution under distributionHead; a
// distribution with nothing in it shows n/a.
func summaryRow(name string, s result.Summary) []cell {
	empty := s.Count == 0 && s.Max == 0
	ms := func(v float64) cell {
		if empty {
			return num("n/a")
		}
		return num(format.Ms(v))
	}
	row := []cell{key(name), ms(s.Min), ms(s.Avg)}
	for _, p := range result.Percentiles() {
		row = append(row, ms(p.Of(s)))
	}
	return append(row, ms(s.Max), num(format.Int(s.Count)))
}

// verdictSection lists every gate the run was judged by and states the
// verdict in the words of the exit code (report/verdict's Line).
func verdictSection(r *result.Result) section {
	s := section{ID: "verdicts", Title: "Verdicts", Paras: []string{verdict.Line(r) + "."}}
	v := verdict.Of(r)
	switch v {
	case verdict.Passed:
		s.Badge = &badge{Text: "PASS", Class: "pass"}
	case verdict.Deferred:
		s.Badge = &badge{Text: "DEFERRED", Class: "pass"}
	default:
		s.Badge = &badge{Text: strings.ToUpper(v.String()), Class: "fail"}
	}
	if len(r.Thresholds) == 0 {
		var rules []string
		for _, rule := range verdict.Rules() {
			rules = append(rules, rule.Gate)
		}
		s.Paras = append(s.Paras, "The built-in rules, where they apply: "+strings.Join(rules, ", ")+".")
		return s
	}
	t := table{Head: head(-1, "gate", "measured", "result", "")}
	failed := 0
	for _, th := range r.Thresholds {
		res := cell{Text: "PASS", Class: "pass"}
		switch {
		case th.Undecided && th.Pass:
			res = cell{Text: "UNDECIDED (passes)", Class: "pass"}
		case th.Undecided:
			res = cell{Text: "UNDECIDED (fails)", Class: "fail"}
			failed++
		case !th.Pass:
			res = cell{Text: "FAIL", Class: "fail"}
			failed++
		}
		name := th.Expr
		if th.Kind == result.KindBaseline {
			name = "baseline: " + name
		}
		why := th.Reason
		if th.Note != "" {
			why = th.Note
		}
		t.Rows = append(t.Rows, []cell{txt(name), num(format.Gate(th)), res, txt(why)})
	}
	s.Tables = []table{t}
	if failed > 0 && v == verdict.Failed {
		s.Badge.Text = fmt.Sprintf("FAIL (%d of %d)", failed, len(r.Thresholds))
	}
	return s
}

func chartSection(r *result.Result, lat, svc *hdrhistogram.Histogram, histNote string) section {
	noTimeline := "The result has no per-second timeline."
	spec := spectrumChart(lat, svc).figure("No latency was recorded.")
	if histNote != "" {
		spec.Caption += " Not drawn: " + histNote + "."
	}
	s := section{
		ID: "charts", Title: "Charts",
		Paras: []string{"Charts over seconds share one cursor: hover for the values of every chart at that second, " +
			"drag across a chart to zoom into a span (double-click zooms out), click a legend entry to hide or show its line."},
		Figures: []figure{
			latencyChart(r.Timeline).figure(noLatencyText(r)),
			rateChart(r.Timeline).figure(noTimeline),
			errorChart(r.Timeline).figure(noErrorsText(r)),
			spec,
			cpuChart(r).figure("Neither the target's nor the generator's CPU was sampled."),
			memoryChart(r).figure("Neither the target's nor the generator's memory was sampled."),
			poolChart(r).figure("The result has no per-second count of requests in flight."),
		},
	}
	if r.HV != nil {
		s.Figures = append(s.Figures, hvRateChart(r).figure(noTimeline))
	}
	if r.Delivery != nil {
		s.Figures = append(s.Figures, deliveryCharts(r.Delivery)...)
	}
	return s
}

// noLatencyText says why there is no latency per second: no timeline,
// or no request (HV-VES: no message written; its latency runs from the
// due time to the end of the write) with a latency.
func noLatencyText(r *result.Result) string {
	if len(r.Timeline) == 0 {
		return "The result has no per-second timeline."
	}
	if r.HV != nil {
		return "No message of the run was written: an HV-VES message's latency runs from its due time to the end of its write (the collector answers none; its travel time is in the HV-VES section)."
	}
	return "No request of the run finished with a latency."
}

func noErrorsText(r *result.Result) string {
	if len(r.Timeline) == 0 {
		return "The result has no per-second timeline."
	}
	return "No errors during the run."
}

// timelineXY reads one per-second series off the timeline.
func timelineXY(tl []result.Second, get func(result.Second) float64) []point {
	xy := make([]point, len(tl))
	for i, s := range tl {
		xy[i] = point{X: float64(s.T), Y: get(s)}
	}
	return xy
}

// latencyXY reads a per-second latency series, leaving out seconds in
// which nothing was recorded (the drain second after the schedule ends):
// a latency of 0 there would be a fabricated figure.
func latencyXY(tl []result.Second, get func(result.Second) float64) []point {
	xy := make([]point, 0, len(tl))
	for _, s := range tl {
		if s.MaxMs > 0 || s.P99Ms > 0 {
			xy = append(xy, point{X: float64(s.T), Y: get(s)})
		}
	}
	return xy
}

func latencyChart(tl []result.Second) chart {
	return chart{
		title:   "Latency per second",
		caption: "p50, p99 and maximum of the requests due in each second, in ms from the due time.",
		xLabel:  "seconds", yLabel: "ms",
		series: []series{
			{name: "max", color: colGrey, thin: true, xy: latencyXY(tl, func(s result.Second) float64 { return s.MaxMs })},
			{name: "p99", color: colOrange, xy: latencyXY(tl, func(s result.Second) float64 { return s.P99Ms })},
			{name: "p50", color: colBlue, xy: latencyXY(tl, func(s result.Second) float64 { return s.P50Ms })},
		},
	}
}

func rateChart(tl []result.Second) chart {
	return chart{
		title:   "Target vs achieved rate",
		caption: "Requests due (target), sent and answered successfully in each second.",
		xLabel:  "seconds", yLabel: "requests/s",
		series: []series{
			{name: "target (scheduled)", color: colBlack, dashed: true, xy: timelineXY(tl, func(s result.Second) float64 { return float64(s.Scheduled) })},
			{name: "achieved (sent)", color: colBlue, xy: timelineXY(tl, func(s result.Second) float64 { return float64(s.Sent) })},
			{name: "ok", color: colGreen, thin: true, xy: timelineXY(tl, func(s result.Second) float64 { return float64(s.OK) })},
		},
	}
}

// errorChart draws one line per error class; a timeline written without
// classes still shows its total. No errors at all means no chart.
func errorChart(tl []result.Second) chart {
	c := chart{
		title:   "Errors per second by class",
		caption: "Failed requests in each second, by error class (pool_exhausted: no free connection at the due time).",
		xLabel:  "seconds", yLabel: "errors/s",
	}
	classes := map[string]bool{}
	total := int64(0)
	for _, s := range tl {
		total += s.Errors
		for k, v := range s.ErrorsByClass {
			if v > 0 {
				classes[k] = true
			}
		}
	}
	if total == 0 && len(classes) == 0 {
		return c
	}
	names := slices.Sorted(maps.Keys(classes))
	colors := palette()
	for i, name := range names {
		c.series = append(c.series, series{
			name: name, color: colors[i%len(colors)], dashed: i >= len(colors),
			xy: timelineXY(tl, func(s result.Second) float64 { return float64(s.ErrorsByClass[name]) }),
		})
	}
	if len(names) == 0 {
		c.series = append(c.series, series{name: "errors", color: colVermilion,
			xy: timelineXY(tl, func(s result.Second) float64 { return float64(s.Errors) })})
	}
	return c
}

func spectrumChart(lat, svc *hdrhistogram.Histogram) chart {
	return chart{
		title:   "Latency percentile spectrum",
		caption: "Every percentile from p0 to p99.99 over the whole run, on a 1/(1-q) axis that gives the tail room; latency from the due time and service time from the write.",
		xLabel:  "percentile", yLabel: "ms",
		spectrum: true,
		series: []series{
			{name: "latency", color: colBlue, xy: spectrum(lat)},
			{name: "service time", color: colOrange, dashed: true, xy: spectrum(svc)},
		},
	}
}

func cpuChart(r *result.Result) chart {
	c := chart{
		title:   "CPU over time",
		caption: "Target and generator CPU, in percent of one core.",
		xLabel:  "seconds", yLabel: "% CPU",
	}
	if r.Target != nil {
		c.series = append(c.series, series{name: "target", color: colVermilion,
			xy: timelineXY(r.Timeline, func(s result.Second) float64 { return s.TargetCPUPct })})
	}
	if slices.ContainsFunc(r.Timeline, func(s result.Second) bool { return s.GenCPUPct > 0 }) {
		c.series = append(c.series, series{name: "generator (vesload)", color: colBlue,
			xy: timelineXY(r.Timeline, func(s result.Second) float64 { return s.GenCPUPct })})
	}
	return c
}

// mib converts bytes to MiB for the memory axis.
func mib(b int64) float64 { return float64(b) / (1 << 20) }

// memoryChart draws the resident memory of the target and of the
// generator; seconds without a sample are gaps, not zeros.
func memoryChart(r *result.Result) chart {
	c := chart{
		title:   "Memory over time",
		caption: "Resident memory (RSS) of the target and of the generator, in MiB.",
		xLabel:  "seconds", yLabel: "MiB",
	}
	sampled := func(get func(result.Second) int64) []point {
		var xy []point
		for _, s := range r.Timeline {
			if v := get(s); v > 0 {
				xy = append(xy, point{X: float64(s.T), Y: mib(v)})
			}
		}
		return xy
	}
	c.series = []series{
		{name: "target", color: colVermilion, xy: sampled(func(s result.Second) int64 { return s.TargetRSSBytes })},
		{name: "generator (vesload)", color: colBlue, xy: sampled(func(s result.Second) int64 { return s.GenRSSBytes })},
	}
	return c
}

// poolChart draws the requests in flight against the pool size: a line
// that touches the pool size means due requests found no free
// connection. A closed-model ramp adds its step concurrency.
func poolChart(r *result.Result) chart {
	c := chart{
		title:   "Pool use",
		caption: "Requests on a connection at the end of each second against the connection pool size (--pool).",
		xLabel:  "seconds", yLabel: "requests",
	}
	if len(r.Timeline) == 0 || !slices.ContainsFunc(r.Timeline, func(s result.Second) bool { return s.InFlight > 0 || s.Concurrency > 0 }) {
		return c
	}
	c.series = append(c.series, series{name: "in flight", color: colBlue,
		xy: timelineXY(r.Timeline, func(s result.Second) float64 { return float64(s.InFlight) })})
	if slices.ContainsFunc(r.Timeline, func(s result.Second) bool { return s.Concurrency > 0 }) {
		c.series = append(c.series, series{name: "step concurrency", color: colGreen, thin: true,
			xy: timelineXY(r.Timeline, func(s result.Second) float64 { return float64(s.Concurrency) })})
	}
	if r.Config.Pool > 0 {
		c.series = append(c.series, series{name: "pool size", color: colBlack, dashed: true,
			xy: timelineXY(r.Timeline, func(result.Second) float64 { return float64(r.Config.Pool) })})
	}
	return c
}

func errorSection(r *result.Result) section {
	s := section{ID: "errors", Title: "Errors by class"}
	if sumValues(r.Errors) == 0 {
		s.Paras = []string{"No errors."}
		return s
	}
	attempted := r.Attempted()
	t := table{Head: head(1, "class", "count", "% of attempted")}
	for _, k := range byCount(r.Errors) {
		share := "n/a"
		if attempted > 0 {
			share = format.Pct(100*float64(r.Errors[k])/float64(attempted)) + "%"
		}
		t.Rows = append(t.Rows, []cell{txt(k), num(format.Int(r.Errors[k])), num(share)})
	}
	s.Tables = []table{t}
	if len(r.MessageIDs) > 0 {
		ids := table{Caption: "VES error messageId", Head: head(1, "messageId", "count")}
		for _, k := range byCount(r.MessageIDs) {
			ids.Rows = append(ids.Rows, []cell{txt(k), num(format.Int(r.MessageIDs[k]))})
		}
		s.Tables = append(s.Tables, ids)
	}
	return s
}

func resourceSection(r *result.Result) section {
	s := section{ID: "resources", Title: "Target and generator"}
	if t := r.Target; t != nil {
		tt := table{Caption: "Target", Rows: [][]cell{
			{key("source"), txt(redact.URL(t.Source))},
			{key("CPU avg / max"), num(format.CPU(t.CPUAvgPct) + "% / " + format.CPU(t.CPUMaxPct) + "%")},
			{key("RSS max"), num(format.Bytes(t.RSSMaxBytes))},
		}}
		for _, k := range slices.Sorted(maps.Keys(t.Extra)) {
			e := t.Extra[k]
			tt.Rows = append(tt.Rows, []cell{key(k), num(fmt.Sprintf("avg %s, max %s (%d samples)", format.Num(e.Avg), format.Num(e.Max), e.Samples))})
		}
		if t.SampleErrors > 0 {
			tt.Rows = append(tt.Rows, []cell{key("failed samples"), txt(fmt.Sprintf("%d (last: %s)", t.SampleErrors, redact.URL(t.LastError)))})
		}
		if t.Exited {
			tt.Rows = append(tt.Rows, []cell{key("exited"), txt("the target process exited during the run")})
		}
		s.Tables = append(s.Tables, tt)
	} else {
		s.Paras = append(s.Paras, "The target was not sampled.")
	}
	g := r.Generator
	sat := "no"
	if g.Saturated {
		sat = "yes: the generator could not keep the schedule, latency figures are suspect"
	}
	s.Tables = append(s.Tables, table{Caption: "Generator (vesload)", Rows: [][]cell{
		{key("CPU avg / max"), num(format.CPU(g.CPUAvgPct) + "% / " + format.CPU(g.CPUMaxPct) + "%")},
		{key("RSS max"), num(format.Bytes(g.RSSMaxBytes))},
		{key("dispatch lag p50 / p99 / max"), num(format.Ms(g.DispatchLagP50Ms) + " / " + format.Ms(g.DispatchLagP99Ms) + " / " + format.Ms(g.DispatchLagMaxMs) + " ms")},
		{key("max in flight"), num(format.Int(g.MaxInFlight))},
		{key("saturated"), txt(sat)},
	}})
	if in := r.Influx; in != nil {
		rows := [][]cell{
			{key("write URL"), txt(redact.URL(in.URL))},
			{key("batches written"), num(format.Int(in.Batches))},
			{key("points written"), num(format.Int(in.Points))},
			{key("batches failed / dropped"), num(format.Int(in.Failed) + " / " + format.Int(in.Dropped))},
		}
		if in.LastError != "" {
			rows = append(rows, []cell{key("last error"), txt(redact.URL(in.LastError))})
		}
		s.Tables = append(s.Tables, table{Caption: "InfluxDB (--influx-url)", Rows: rows})
	}
	for _, w := range r.Written {
		rows := [][]cell{
			{key("URL"), txt(redact.URL(w.URL))},
			{key("batches written"), num(format.Int(w.Batches))},
			{key("samples written"), num(format.Int(w.Samples))},
			{key("batches failed / dropped"), num(format.Int(w.Failed) + " / " + format.Int(w.Dropped))},
		}
		if w.LastError != "" {
			rows = append(rows, []cell{key("last error"), txt(redact.URL(w.LastError))})
		}
		s.Tables = append(s.Tables, table{Caption: "Output " + w.Output, Rows: rows})
	}
	return s
}

func configSection(r *result.Result) section {
	c := r.Config
	hv := c.Protocol == result.ProtocolHV
	rate := "rps"
	if hv {
		rate = "messages/s"
	}
	rows := [][]cell{
		{key("url"), txt(redact.URL(c.URL))},
		{key(rate), num(format.Num(c.RPS))},
		{key("duration"), num(format.Seconds(c.DurationS))},
	}
	add := func(k, v string) {
		if v != "" {
			rows = append(rows, []cell{key(k), txt(v)})
		}
	}
	add("method", c.Method)
	add("shape", c.Shape)
	if !hv { // HV-VES producers hold one connection each and get no answer to time out
		rows = append(rows,
			[]cell{key("pool"), num(format.Int(int64(c.Pool)))},
			[]cell{key("pool wait"), num(format.Seconds(c.PoolWaitS))},
			[]cell{key("timeout"), num(format.Seconds(c.TimeoutS))},
			[]cell{key("keep-alive"), txt(yesNo(c.KeepAlive))},
		)
	}
	add("profile", c.Profile)
	add("labels", c.LabelText())
	add("event", c.Event)
	if c.EventSize > 0 {
		add("event size", format.Int(int64(c.EventSize))+" B")
	}
	if c.Batch > 0 {
		add("batch", format.Int(int64(c.Batch))+" events per request")
	}
	add("body file", c.BodyFile)
	for _, k := range slices.Sorted(maps.Keys(c.Headers)) {
		add("header "+k, redact.Header(k, c.Headers[k]))
	}
	add("user", c.User)
	add("auth", c.Auth)
	if c.Insecure {
		add("TLS verification", "off (--insecure)")
	}
	if c.Emulator {
		add("target", "the built-in VES collector emulator")
	}
	add("thresholds", strings.Join(c.Thresholds, ", "))
	return section{ID: "config", Title: "Configuration", Tables: []table{{Rows: rows}}}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// byCount orders map keys by descending count, then by name.
func byCount(m map[string]int64) []string {
	keys := slices.Sorted(maps.Keys(m))
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	return keys
}

func sumValues(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}
