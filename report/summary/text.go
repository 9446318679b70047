package summary

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/vesload/vesload/internal/redact"

	"github.com/vesload/vesload/report/format"
	"github.com/vesload/vesload/report/result"
	"github.com/vesload/vesload/report/seed"
	"github.com/vesload/vesload/report/table"
	"github.com/vesload/vesload/report/verdict"
)

// TextOptions tunes the human summary.
type Options struct {
	// Color marks PASS, FAIL and warnings with ANSI colours; set it only
	// when writing to a terminal.
	Color bool
	// Appendix is text written after the warnings and before the verdict
	// line: the baseline gates' sentences of run --baseline.
	Appendix string
}

// ANSI colour codes used by the text summary.
const (
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

// textWriter is a printer that knows whether to colour.
type textWriter struct {
	*format.Printer
	color bool
}

// paint colours s for a terminal, its control characters escaped first
// (table.EscapeControl): the colour codes are the only ones the summary
// writes.
func (t *textWriter) paint(code, s string) format.Styled {
	s = table.EscapeControlLines(s)
	if !t.color || s == "" {
		return format.Styled(s)
	}
	return format.Styled(code + s + ansiReset)
}

// warnWidth is where warnings wrap, so that they read in a terminal.
const warnWidth = 90

// warn prints a warning that must not be missed, wrapped and indented
// under its "WARNING:" label.
func (t *textWriter) warn(indent, msg string) {
	const label = "WARNING: "
	for i, line := range format.Wrap(msg, warnWidth) {
		if i == 0 {
			t.Printf("%s%s %s\n", indent, t.paint(ansiYellow, "WARNING:"), line)
			continue
		}
		t.Println(indent + strings.Repeat(" ", len(label)) + line)
	}
}

// section starts a titled block, separated from the previous one by a
// blank line.
func (t *textWriter) section(title string) {
	t.sectionIn(ansiBold, title)
}

// sectionIn is section with the title in colour code.
func (t *textWriter) sectionIn(code, title string) {
	t.Println("")
	t.Printf("%s\n", t.paint(code, title))
}

// Text writes the human summary of a run: what was asked and achieved,
// the seed table, request accounting, errors, the latency distribution
// beside service time, the generator's and target's health, thresholds
// and warnings. Every section copes with missing data, so a run that sent
// nothing still renders. The only error is a failed write.
func Text(w io.Writer, r *result.Result, opts Options) error {
	if r == nil {
		return errors.New("text report: no result")
	}
	t := &textWriter{Printer: format.NewPrinter(w), color: opts.Color}
	textHeader(t, r)
	textSeed(t, r)
	textHV(t, r)
	textRequests(t, r)
	textData(t, r)
	textByRequest(t, r)
	textSteps(t, r)
	textErrors(t, r)
	textLatency(t, r)
	textGenerator(t, r)
	textTarget(t, r)
	textDelivery(t, r)
	textThresholds(t, r)
	textWarnings(t, r)
	textOutputs(t, r)
	if opts.Appendix != "" {
		t.Printf("%s", opts.Appendix)
	}
	textVerdict(t, r)
	if t.Err() != nil {
		return fmt.Errorf("text report: %w", t.Err())
	}
	return nil
}

func textHeader(t *textWriter, r *result.Result) {
	name := r.Tool.Name
	if name == "" {
		name = "vesload"
	}
	head := strings.TrimSpace(name + " " + r.Tool.Version)
	target := strings.TrimSpace(r.Config.Method + " " + redact.URL(r.Config.URL))
	if target == "" {
		target = "(no URL)"
	}
	line := head + ": " + target
	if r.Config.Emulator {
		line += " (built-in emulator)"
	}
	t.Printf("%s\n", t.paint(ansiBold, line))

	shape := r.Config.Shape
	if shape == "" {
		shape = "constant"
	}
	status := format.Styled("completed")
	switch {
	case r.AbortedBy != "":
		status = t.paint(ansiYellow, "stopped early by --abort-on-fail: "+r.AbortedBy)
	case r.TargetExited != "":
		status = t.paint(ansiYellow, "stopped: "+r.TargetExited)
	case r.StoppedAtStart != "":
		status = t.paint(ansiYellow, "stopped at the start by the start-of-run rule (--keep-going runs on)")
	case r.Interrupted:
		status = t.paint(ansiYellow, "INTERRUPTED")
	}
	ran := format.Seconds(r.DurationS)
	if r.Config.DurationS > 0 {
		ran += " of " + format.Seconds(r.Config.DurationS)
	}
	// A closed model has a concurrency, not a target rate; the shards of
	// one run read "2 shards of constant 100/s for 2s".
	closed := strings.HasPrefix(shape, "closed") || strings.Contains(shape, " of closed")
	if m := r.Merged; (m == nil || m.Count == 0) && !closed && r.Config.Protocol != result.ProtocolHV {
		shape += " shape"
	}
	switch {
	case r.Config.Protocol == result.ProtocolHV: // the shape is "N producers × M every D": messages
		t.Printf("  %s, target %s msg/s, achieved %s msg/s, ran %s, %s\n",
			shape, format.Num(r.RPS.Target), format.Num(r.RPS.Achieved), ran, status)
	case closed:
		t.Printf("  %s; achieved %s rps, ran %s, %s\n", shape, format.Num(r.RPS.Achieved), ran, status)
	default:
		t.Printf("  %s, target %s rps, achieved %s rps, ran %s, %s\n",
			shape, format.Num(r.RPS.Target), format.Num(r.RPS.Achieved), ran, status)
	}
	if !r.Started.IsZero() {
		t.Printf("  started %s, ended %s\n", fmtTime(r.Started), fmtTime(r.Ended))
	}
	if setup := runSetup(r.Config); setup != "" {
		t.Println("  " + setup)
	}
}

func fmtTime(tm time.Time) string {
	if tm.IsZero() {
		return na
	}
	return tm.Format(time.RFC3339)
}

// runSetup lists the settings that explain the numbers: the pool bounds
// concurrency, the profile or event says what was sent.
func runSetup(c result.RunConfig) string {
	var parts []string
	if c.Profile != "" {
		parts = append(parts, "profile "+c.Profile)
	}
	if l := c.LabelText(); l != "" {
		parts = append(parts, "labels "+l)
	}
	if c.Event != "" {
		ev := "event " + c.Event
		if c.EventSize > 0 {
			ev += fmt.Sprintf(" (%d B)", c.EventSize)
		}
		parts = append(parts, ev)
	}
	if c.BodyFile != "" {
		parts = append(parts, "body "+c.BodyFile)
	}
	if c.Batch > 1 {
		parts = append(parts, fmt.Sprintf("batch %d", c.Batch))
	}
	hv := c.Protocol == result.ProtocolHV // producers, not a pool; a write timeout, no answer to wait for
	if c.Pool > 0 && !hv {
		parts = append(parts, fmt.Sprintf("pool %d", c.Pool))
	}
	if c.PoolWaitS > 0 {
		parts = append(parts, "pool wait "+format.Seconds(c.PoolWaitS))
	}
	if c.TimeoutS > 0 && !hv {
		parts = append(parts, "timeout "+format.Seconds(c.TimeoutS))
	}
	if !c.KeepAlive {
		parts = append(parts, "keep-alive off")
	}
	return strings.Join(parts, ", ")
}

func textSeed(t *textWriter, r *result.Result) {
	t.section("Summary (latency from due time, ms; Max CPU % of the target)")
	d := seed.AnyDelivery(r)
	tb := table.Table{Cols: seed.Columns(d)}
	tb.Add(seed.Row(r, d)...)
	t.Lines(tb.Pipe(""))
}

// textRequests prints the request accounting so that both sums read off
// the block: scheduled = sent + pool_exhausted + not_sent, and
// sent = ok + failed (+ in flight, in a checkpoint), where failed are the
// sent requests that did not succeed; pool_exhausted requests were never
// sent. It prints one error rate, the result's: errors (failed and
// pool_exhausted) of the attempted requests, as error_rate gates it.
func textRequests(t *textWriter, r *result.Result) {
	q := r.Requests
	// pe counts the errors never sent: pool_exhausted, or for HV-VES the
	// messages due while the producer had no connection (disconnected).
	unsent, pe := result.UnsentRow(r.Errors)
	unsentNote := "due but no free connection (errors, never sent)"
	if unsent == result.ClassDisconnected {
		unsentNote = "due while the connection was down (errors, never sent)"
	}
	failed := q.Errors - pe
	t.section("Requests")
	tb := table.Table{Cols: []table.Column{table.Left(""), table.Right(""), table.Left("")}}
	tb.Add("scheduled", format.Int(q.Scheduled))
	tb.Add("sent", format.Int(q.Sent))
	tb.Add("  ok", format.Int(q.OK))
	tb.Add("  failed", format.Int(failed), "sent, not ok (errors)")
	if q.InFlight > 0 {
		tb.Add("  in flight", format.Int(q.InFlight), "no answer yet when this checkpoint was taken")
	}
	tb.Add(unsent, format.Int(pe), unsentNote)
	tb.Add("not sent", format.Int(q.NotSent), "due but cut off by the stop")
	t.Lines(tb.Plain("  "))
	if err := r.AccountingError(); err != nil {
		t.warn("  ", "request accounting does not add up: "+err.Error())
	} else {
		t.Printf("  accounting: scheduled = sent + %s + not_sent holds (%s = %s + %s + %s)\n",
			unsent, format.Int(q.Scheduled), format.Int(q.Sent), format.Int(pe), format.Int(q.NotSent))
	}
	if q.InFlight > 0 {
		t.Printf("              sent = ok + failed + in_flight (%s = %s + %s + %s)\n",
			format.Int(q.Sent), format.Int(q.OK), format.Int(failed), format.Int(q.InFlight))
	} else {
		t.Printf("              sent = ok + failed (%s = %s + %s)\n", format.Int(q.Sent), format.Int(q.OK), format.Int(failed))
	}
	if pct, ok := r.ErrorRatePct(); ok {
		t.Printf("  error rate %s%% = errors / attempted = (failed + %s) / (scheduled - not_sent) = (%s + %s) / %s\n",
			format.Pct(pct), unsent, format.Int(failed), format.Int(pe), format.Int(r.Attempted()))
	}
	if r.Bytes.Sent > 0 || r.Bytes.Received > 0 {
		t.Printf("  bytes: sent %s, received %s\n", format.Bytes(r.Bytes.Sent), format.Bytes(r.Bytes.Received))
	}
	if p := r.Preflight; p != nil {
		t.Println("  preflight: " + p.Summary())
	}
}

func textErrors(t *textWriter, r *result.Result) {
	classes := byCount(r.Errors)
	if len(classes) == 0 {
		t.section("Errors: none")
	} else {
		t.section("Errors by class")
		attempted := r.Attempted()
		tb := table.Table{Cols: []table.Column{table.Left("class"), table.Right("count"), table.Right("% of attempted")}}
		for _, c := range classes {
			pct := na
			if attempted > 0 {
				pct = format.Pct(100 * float64(r.Errors[c]) / float64(attempted))
			}
			tb.Add(c, format.Int(r.Errors[c]), pct)
		}
		t.Lines(tb.Plain("  "))
	}
	ids := byCount(r.MessageIDs)
	if len(ids) == 0 {
		return
	}
	t.section("VES error messageIds")
	tb := table.Table{Cols: []table.Column{table.Left("messageId"), table.Right("count")}}
	for _, id := range ids {
		tb.Add(id, format.Int(r.MessageIDs[id]))
	}
	t.Lines(tb.Plain("  "))
}

// byCount returns the keys with a non-zero count, largest count first and
// by name among equals, so that the main cause of errors reads first.
func byCount(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k, v := range m {
		if v != 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

func textThresholds(t *textWriter, r *result.Result) {
	if len(r.Thresholds) == 0 {
		return
	}
	failed := 0
	for _, th := range r.Thresholds {
		if !th.Pass {
			failed++
		}
	}
	title := fmt.Sprintf("Thresholds: %d passed, %d failed", len(r.Thresholds)-failed, failed)
	t.section(title)
	tb := table.Table{Cols: []table.Column{table.Left("Threshold"), table.Right("Value"), table.Left("Result")}}
	for _, th := range r.Thresholds {
		value, verdict := format.Gate(th), "PASS"
		switch {
		case th.Undecided && th.Pass:
			verdict = "UNDECIDED (passes)"
		case th.Undecided:
			verdict = "UNDECIDED (fails)"
		case !th.Pass:
			verdict = "FAIL"
			if th.Reason != "" {
				verdict += ": " + th.Reason
			}
		}
		if th.Kind == result.KindBaseline {
			th.Expr = "baseline: " + th.Expr
		}
		tb.Add(table.EscapeCell(th.Expr), value, table.EscapeCell(verdict))
	}
	tb.Style = func(row, col int, s string) string {
		if col != 2 {
			return s
		}
		if r.Thresholds[row].Pass {
			return string(t.paint(ansiGreen, s))
		}
		return string(t.paint(ansiRed, s))
	}
	t.Lines(tb.Pipe(""))
}

// textVerdict ends the summary with the verdict in the words of the exit
// code (report/verdict's Line).
func textVerdict(t *textWriter, r *result.Result) {
	line := verdict.Line(r)
	color := ansiGreen
	switch verdict.Of(r) {
	case verdict.Failed:
		color = ansiRed
	case verdict.Deferred, verdict.Interrupted, verdict.Incomplete:
		color = ansiYellow
	}
	t.Println("")
	t.Printf("%s\n", t.paint(color, line))
}

// textOutputs says in one line which outputs lost part of the run.
func textOutputs(t *textWriter, r *result.Result) {
	if len(r.Outputs) == 0 {
		return
	}
	lost := make([]string, len(r.Outputs))
	for i, o := range r.Outputs {
		lost[i] = o.Summary()
	}
	head := "Outputs incomplete"
	if !r.OutputsIncomplete() {
		head = "Live views behind"
	}
	t.Printf("%s%s\n", t.paint(ansiYellow, head+": "), strings.Join(lost, "; "))
}

func textWarnings(t *textWriter, r *result.Result) {
	if len(r.Warnings) == 0 {
		return
	}
	t.sectionIn(ansiBold+ansiYellow, "Warnings")
	for _, w := range r.Warnings {
		t.Println("  - " + strings.Join(strings.Fields(w), " "))
	}
}

// na stands for a figure the result does not have.
const na = format.NA
